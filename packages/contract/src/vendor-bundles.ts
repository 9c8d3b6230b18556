import { z } from 'zod';
import { productKind } from './catalog.ts';
import { idSchema, pageFields, timestampInput } from './common.ts';
import {
  BUNDLE_PICKER_PAGE_MAX,
  BUNDLE_PICKER_QUERY_MAX,
  BUNDLE_PRODUCTS_MAX,
  BUNDLE_PRODUCTS_MIN,
  VENDOR_BUNDLES_PAGE_MAX,
  vendorBundleMessages as m,
} from './constants/vendor-bundles.ts';
import { PLAN_AMOUNT_MAX, PLAN_AMOUNT_MIN, planCurrencies } from './constants/vendor-products.ts';
import { defineRoute } from './route.ts';
import { listingStateFields, listingTextFields, vendorProductStatus } from './vendor-products.ts';

export * from './constants/vendor-bundles.ts';

/** The bundle's one price: paid once, in minor units. */
export const vendorBundlePriceInput = z.object({
  amount: z
    .number({ error: m.amount })
    .int(m.amount)
    .min(PLAN_AMOUNT_MIN, m.amount)
    .max(PLAN_AMOUNT_MAX, m.amount),
  currency: z.enum(planCurrencies, { error: m.currency }).default('usd'),
});

/**
 * What the editor saves: 2 to 20 of the vendor's own products, each once. A draft may lack a title,
 * a summary or a price; publishing needs them.
 */
export const vendorBundleInput = z.object({
  ...listingTextFields(m),
  productIds: z
    .array(idSchema, { error: m.productsMin })
    .min(BUNDLE_PRODUCTS_MIN, m.productsMin)
    .max(BUNDLE_PRODUCTS_MAX, m.productsMax)
    .refine((ids) => new Set(ids).size === ids.length, m.productsUnique),
  price: vendorBundlePriceInput.nullable().default(null),
  /**
   * Saving a bundle on sale whose price is above its products' value (a negative saving) needs this
   * (422 on this field without it): buyers would pay more than for the parts.
   */
  confirmPriceAboveValue: z.boolean().default(false),
});
export type VendorBundleInput = z.input<typeof vendorBundleInput>;

/** A save of an existing bundle: the input, and which version of it the editor started from. */
export const vendorBundleUpdate = vendorBundleInput.extend({
  /**
   * The `updatedAt` the editor loaded. When the bundle changed since (another tab), the save is
   * refused with 409 and nothing changes; left out, the save replaces whatever is there (ADR 040).
   */
  baseUpdatedAt: timestampInput({ offset: true, error: m.baseUpdatedAt }).optional(),
});
export type VendorBundleUpdate = z.input<typeof vendorBundleUpdate>;

/** Publishing: the same confirmation, for a bundle that costs more than its products. No body: not confirmed. */
export const vendorBundlePublishInput = z
  .object({ confirmPriceAboveValue: z.boolean().default(false) })
  .nullish();
export type VendorBundlePublishInput = z.input<typeof vendorBundlePublishInput>;

const price = z.object({ amount: z.number().int(), currency: z.string() });

/** One of the vendor's products as the bundle editor shows it (and its picker lists it). */
export const vendorBundleProduct = z
  .object({
    id: z.string(),
    title: z.string(),
    kind: productKind,
    status: vendorProductStatus,
    /** Its one-time plan, else its first plan: what the bundle's value counts. */
    price: price.nullable(),
  })
  .meta({ id: 'VendorBundleProduct' });
export type VendorBundleProduct = z.infer<typeof vendorBundleProduct>;

/** A bundle as its vendor edits it, drafts included. */
export const vendorBundle = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    description: z.string(),
    /** The cover (upload through `uploadVendorBundleCover`). */
    imageUrl: z.string().nullable(),
    /** The price on sale; null while there is none. */
    price: price.extend({ priceId: z.string() }).nullable(),
    products: z.array(vendorBundleProduct),
    /** The published products' value against the price (`bundleSaving`); null when it cannot be told. */
    saving: z
      .object({ value: z.number().int(), amount: z.number().int(), percent: z.number().int() })
      .nullable(),
    ...listingStateFields,
  })
  .meta({ id: 'VendorBundle' });
export type VendorBundle = z.infer<typeof vendorBundle>;

/** A row of the vendor's bundle list. */
export const vendorBundleRow = vendorBundle
  .pick({
    id: true,
    slug: true,
    status: true,
    title: true,
    imageUrl: true,
    price: true,
    publicPath: true,
    updatedAt: true,
  })
  .extend({ productsCount: z.number().int() })
  .meta({ id: 'VendorBundleRow' });
export type VendorBundleRow = z.infer<typeof vendorBundleRow>;

export const vendorBundlesQuery = z.object({
  ...pageFields(VENDOR_BUNDLES_PAGE_MAX),
  status: vendorProductStatus.optional(),
});
export type VendorBundlesQuery = z.input<typeof vendorBundlesQuery>;

export const vendorBundleProductsQuery = z.object({
  q: z.string().trim().max(BUNDLE_PICKER_QUERY_MAX).optional(),
  ...pageFields(BUNDLE_PICKER_PAGE_MAX),
});
export type VendorBundleProductsQuery = z.input<typeof vendorBundleProductsQuery>;

const bundleParams = z.object({ id: idSchema });
const bundleResponse = z.object({ bundle: vendorBundle });

export const vendorBundlesRoutes = {
  vendorBundles: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/bundles',
    auth: 'bearer',
    summary: 'The vendor’s bundles, drafts included, most recently edited first; `status` filters.',
    tags: ['vendor'],
    status: 200,
    query: vendorBundlesQuery,
    response: z.object({ bundles: z.array(vendorBundleRow), nextCursor: z.string().nullable() }),
  }),
  vendorBundleProducts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/bundles/products',
    auth: 'bearer',
    summary:
      'The vendor’s products a bundle can hold, drafts included, by title; `q` finds them by a part of the title.',
    tags: ['vendor'],
    status: 200,
    query: vendorBundleProductsQuery,
    response: z.object({
      products: z.array(vendorBundleProduct),
      nextCursor: z.string().nullable(),
    }),
  }),
  vendorBundle: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/bundles/{id}',
    auth: 'bearer',
    summary: 'One of the vendor’s bundles as the editor shows it, with its saving.',
    tags: ['vendor'],
    status: 200,
    params: bundleParams,
    response: bundleResponse,
  }),
  createVendorBundle: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/bundles',
    auth: 'bearer',
    summary:
      'Creates a bundle of 2 to 20 of the vendor’s own products as a draft: nobody else sees it until it is published.',
    tags: ['vendor'],
    status: 201,
    body: vendorBundleInput,
    response: bundleResponse,
  }),
  updateVendorBundle: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/bundles/{id}',
    auth: 'bearer',
    summary:
      'Saves the whole bundle; with `baseUpdatedAt`, a bundle changed since the editor loaded it answers 409 and nothing is saved. A published bundle changes on its page, in search and in the sitemap at once. A changed price is a new price; the old one is archived, so what buyers paid stays as it was, and buyers keep every product they got.',
    tags: ['vendor'],
    status: 200,
    params: bundleParams,
    body: vendorBundleUpdate,
    response: bundleResponse,
  }),
  publishVendorBundle: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/bundles/{id}/publish',
    auth: 'bearer',
    summary:
      'Publishes the bundle (a title, a summary, a price and at least 2 published products are needed; 422 says what is missing). A bundle priced above its products bought separately is refused (422 on `confirmPriceAboveValue`) unless `confirmPriceAboveValue` is true. Publishing again changes nothing.',
    tags: ['vendor'],
    status: 200,
    params: bundleParams,
    body: vendorBundlePublishInput,
    response: bundleResponse,
  }),
  unpublishVendorBundle: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/bundles/{id}/unpublish',
    auth: 'bearer',
    summary:
      'Hides the bundle from its page, search, the storefront and the sitemap. Buyers keep what they bought.',
    tags: ['vendor'],
    status: 200,
    params: bundleParams,
    response: bundleResponse,
  }),
  uploadVendorBundleCover: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/bundles/{id}/cover',
    auth: 'bearer',
    summary:
      'Sets the bundle’s cover, drafts included (multipart field `file`; PNG, JPEG or WebP up to 2 MB). The cover it replaces is deleted.',
    tags: ['vendor'],
    status: 200,
    multipart: true,
    params: bundleParams,
    response: bundleResponse,
  }),
  removeVendorBundleCover: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/bundles/{id}/cover',
    auth: 'bearer',
    summary: 'Removes the bundle’s cover and deletes its files.',
    tags: ['vendor'],
    status: 200,
    params: bundleParams,
    response: bundleResponse,
  }),
} as const;
