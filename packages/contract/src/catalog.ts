import { z } from 'zod';
import { idSchema, isoDateTime, pageFields, responsiveImage } from './common.ts';
import {
  assetClasses,
  catalogCategories,
  priceIntervals,
  productKinds,
  SEARCH_LIMIT_MAX,
  SEARCH_Q_MAX,
  searchSorts,
  tradingPlatforms,
} from './constants/catalog.ts';
import { defineRoute } from './route.ts';
import { deliverySummary } from './deliverables.ts';

export * from './constants/catalog.ts';

export const productKind = z.enum(productKinds);
export const catalogCategory = z.enum(catalogCategories);
export const tradingPlatform = z.enum(tradingPlatforms);
export const assetClass = z.enum(assetClasses);

export const priceSchema = z
  .object({
    priceId: z.string(),
    amount: z.number().int(),
    currency: z.string().length(3),
    scheme: z.enum(['one_time', 'recurring']),
    /** Recurring prices only. */
    interval: z.enum(priceIntervals).nullable(),
    trialDays: z.number().int().nullable(),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof priceSchema>;

export const vendorSummary = z
  .object({
    id: z.string(),
    vendorUrl: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    verified: z.boolean(),
  })
  .meta({ id: 'VendorSummary' });
export type VendorSummary = z.infer<typeof vendorSummary>;

export const ratingSummary = z.object({ average: z.number(), count: z.number().int() });

/** What names a product wherever it is shown: the buyer's card and the vendor's editor alike. */
export const productHeadFields = {
  id: z.string(),
  slug: z.string(),
  kind: productKind,
  category: catalogCategory,
  title: z.string(),
  summary: z.string(),
};

/** A product as lists and search show it. */
export const productCard = z
  .object({
    ...productHeadFields,
    /** The cover's largest JPEG (share cards); `image` has its responsive variants. */
    imageUrl: z.string().nullable(),
    image: responsiveImage.nullable(),
    platforms: z.array(tradingPlatform),
    tags: z.array(z.string()),
    /** The default price. */
    priceId: z.string(),
    price: priceSchema,
    rating: ratingSummary,
    vendor: vendorSummary,
    isActive: z.boolean(),
    /** True when the signed-in buyer owns it; false when signed out. */
    purchased: z.boolean(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'ProductCard' });
export type ProductCard = z.infer<typeof productCard>;

export const bundleCard = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    imageUrl: z.string().nullable(),
    image: responsiveImage.nullable(),
    priceId: z.string(),
    price: priceSchema,
    /**
     * Sum of the included products' one-time (else first) prices in the bundle's currency; 0 when one
     * has no price in it (ADR 046).
     */
    valueAmount: z.number().int(),
    productIds: z.array(z.string()),
    vendor: vendorSummary,
    isActive: z.boolean(),
    purchased: z.boolean(),
  })
  .meta({ id: 'BundleCard' });
export type BundleCard = z.infer<typeof bundleCard>;

export const productDetails = productCard
  .extend({
    description: z.string(),
    /** `description` rendered from Markdown and sanitised (ADR 056): pages insert it as it is. */
    descriptionHtml: z.string(),
    images: z.array(z.string()),
    /** `images` with their variants, cover first; legacy single files are left out. */
    gallery: z.array(responsiveImage),
    assetClasses: z.array(assetClass),
    prices: z.array(priceSchema),
    bundles: z.array(
      bundleCard.pick({ id: true, slug: true, title: true, priceId: true, price: true }),
    ),
    prerequisites: z.array(
      z.object({ id: z.string(), slug: z.string(), title: z.string(), purchased: z.boolean() }),
    ),
    salesCount: z.number().int(),
    /** True when the signed-in user is its vendor: vendors cannot buy what they sell. */
    soldByYou: z.boolean(),
    /** What buying it delivers, derived from the data (issue 29): the page's "What you get". */
    delivers: deliverySummary,
  })
  .meta({ id: 'ProductDetails' });
export type ProductDetails = z.infer<typeof productDetails>;

export const vendorProfile = vendorSummary
  .extend({
    bio: z.string(),
    bannerUrl: z.string().nullable(),
    banner: responsiveImage.nullable(),
    socialLinks: z.record(z.string(), z.string()),
    discordServer: z.object({ id: z.string(), name: z.string() }).nullable(),
    productCount: z.number().int(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'VendorProfile' });
export type VendorProfile = z.infer<typeof vendorProfile>;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
export const vendorUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i, 'Unknown vendor.');

export const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .max(SEARCH_Q_MAX, `Search for at most ${SEARCH_Q_MAX} characters.`)
    .default(''),
  category: catalogCategory.optional(),
  kind: productKind.optional(),
  platform: tradingPlatform.optional(),
  minPrice: z.coerce.number().int().min(0).max(100_000_000).optional(),
  maxPrice: z.coerce.number().int().min(0).max(100_000_000).optional(),
  sort: z.enum(searchSorts).default('relevance'),
  ...pageFields(SEARCH_LIMIT_MAX, 24),
});
export type SearchQuery = z.input<typeof searchQuery>;

/** Another search that finds something, offered when a search finds nothing. */
export const searchSuggestion = z
  .object({
    q: z.string(),
    /** Absent: every category. */
    category: catalogCategory.optional(),
    /** Products it finds by title, tags, type, platform or asset class, counted up to 100. */
    count: z.number().int(),
  })
  .meta({ id: 'SearchSuggestion' });
export type SearchSuggestion = z.infer<typeof searchSuggestion>;

export const bundleDetails = bundleCard
  .extend({
    description: z.string(),
    /** `description` rendered from Markdown and sanitised (ADR 056). */
    descriptionHtml: z.string(),
    products: z.array(productCard),
    /**
     * Per product (as `products`): the price the bundle's value counts for it, its one-time plan, else
     * its first plan (ADR 046); null when it has none. The term the bundle gives is `bundleItemTerms`.
     */
    items: z.array(z.object({ productId: z.string(), counted: priceSchema.nullable() })),
    /** True when the signed-in user is its vendor: vendors cannot buy what they sell. */
    soldByYou: z.boolean(),
  })
  .meta({ id: 'BundleDetails' });
export type BundleDetails = z.infer<typeof bundleDetails>;

export const catalogRoutes = {
  vendorProfile: defineRoute({
    method: 'GET',
    path: '/api/v1/user/vendor-profile/search',
    auth: 'optional',
    summary: "A vendor's public profile (seller details).",
    tags: ['catalog'],
    status: 200,
    query: z.object({ vendorUrl: vendorUrlSchema }),
    response: z.object({ vendor: vendorProfile }),
  }),
  sellerProductList: defineRoute({
    method: 'GET',
    path: '/api/v1/products/list/search',
    auth: 'optional',
    summary: "A vendor's products and bundles in one call.",
    tags: ['catalog'],
    status: 200,
    query: z.object({ vendorUrl: vendorUrlSchema, isActive: bool.default(true) }),
    response: z.object({ products: z.array(productCard), bundles: z.array(bundleCard) }),
  }),
  addProductImage: defineRoute({
    method: 'POST',
    path: '/api/v1/products/{id}/images',
    auth: 'bearer',
    summary:
      'A vendor adds a picture to one of its products (multipart field `file`; PNG, JPEG or WebP up to 2 MB); the first is the cover. Decoded, stripped of metadata, stored as AVIF, WebP and JPEG variants.',
    tags: ['catalog'],
    status: 200,
    multipart: true,
    params: z.object({ id: idSchema }),
    response: z.object({ product: productDetails }),
  }),
  productDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/products/details/search',
    auth: 'optional',
    summary: 'One product with its prices, vendor, bundles, prerequisites and rating.',
    tags: ['catalog'],
    status: 200,
    query: z.object({ id: idSchema }),
    response: z.object({ product: productDetails }),
  }),
  search: defineRoute({
    method: 'GET',
    path: '/api/v1/products/term/search',
    auth: 'optional',
    summary:
      'Full-text search with typo tolerance and prefix matching; words naming a product type, platform or asset class match those fields; filters by category, kind, platform and price.',
    tags: ['catalog'],
    status: 200,
    query: searchQuery,
    response: z.object({
      products: z.array(productCard),
      bundles: z.array(bundleCard),
      nextCursor: z.string().nullable(),
      /** Set when nothing matched as typed and a spelling correction was searched instead. */
      didYouMean: z.string().nullable(),
      /**
       * When a first page finds nothing: the same search with a word dropped, or in another category,
       * most matches first. Empty otherwise.
       */
      suggestions: z.array(searchSuggestion),
    }),
  }),
  bundleDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/bundles/details/search',
    auth: 'optional',
    summary: 'One bundle with its products.',
    tags: ['catalog'],
    status: 200,
    query: z.object({ id: idSchema }),
    response: z.object({ bundle: bundleDetails }),
  }),
  topVendors: defineRoute({
    method: 'GET',
    path: '/api/v1/vendors/top',
    auth: 'none',
    summary: 'Vendors with the most sales, for the home page.',
    tags: ['catalog'],
    status: 200,
    query: z.object({ limit: z.coerce.number().int().min(1).max(24).default(8) }),
    response: z.object({ vendors: z.array(vendorProfile) }),
  }),
  validatePrerequisites: defineRoute({
    method: 'POST',
    path: '/api/v1/user/validate-prerequisites',
    auth: 'bearer',
    summary: 'Which prerequisite products the buyer still needs before buying this one.',
    tags: ['catalog'],
    status: 200,
    body: z.object({ productId: idSchema }),
    response: z.object({
      productId: z.string(),
      satisfied: z.boolean(),
      missing: z.array(z.object({ id: z.string(), slug: z.string(), title: z.string() })),
    }),
  }),
} as const;
