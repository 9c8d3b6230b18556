import { z } from 'zod';
import { assetClass, productHeadFields, productKind, tradingPlatform } from './catalog.ts';
import { PRODUCT_IMAGES_MAX, productKinds } from './constants/catalog.ts';
import { idSchema, isoDateTime, pageFields, timestampInput } from './common.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';
import {
  PLAN_AMOUNT_MAX,
  PLAN_AMOUNT_MIN,
  PLAN_TRIAL_DAYS_MAX,
  planBillings,
  planCurrencies,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_PLANS_MAX,
  PRODUCT_PREREQUISITES_MAX,
  PRODUCT_SUMMARY_MAX,
  PRODUCT_TAG_MAX,
  PRODUCT_TAGS_MAX,
  PRODUCT_TITLE_MAX,
  VENDOR_PRODUCTS_PAGE_MAX,
  vendorProductMessages as m,
  vendorProductStatuses,
  type ListingTextMessages,
} from './constants/vendor-products.ts';

export * from './constants/vendor-products.ts';

const readable = (multiline: boolean) => (v: string) => !hasUnreadableCharacters(v, multiline);
const unique = (list: readonly string[]) => new Set(list).size === list.length;

export const vendorProductStatus = z.enum(vendorProductStatuses);
export const planBilling = z.enum(planBillings, { error: m.billing });

/** One plan as the editor sends it: `priceId` names an existing plan kept (changed or not). */
export const vendorPlanInput = z
  .object({
    priceId: idSchema.optional(),
    billing: planBilling,
    amount: z
      .number({ error: m.amount })
      .int(m.amount)
      .min(PLAN_AMOUNT_MIN, m.amount)
      .max(PLAN_AMOUNT_MAX, m.amount),
    currency: z.enum(planCurrencies, { error: m.currency }).default('usd'),
    trialDays: z
      .number({ error: m.trialDays })
      .int(m.trialDays)
      .min(0, m.trialDays)
      .max(PLAN_TRIAL_DAYS_MAX, m.trialDays)
      .default(0),
  })
  .refine((p) => p.billing !== 'one_time' || p.trialDays === 0, {
    error: m.trialOneTime,
    path: ['trialDays'],
  });
export type VendorPlanInput = z.input<typeof vendorPlanInput>;

const tag = z
  .string({ error: m.tag })
  .trim()
  .toLowerCase()
  .min(1, m.tag)
  .max(PRODUCT_TAG_MAX, m.tag)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, m.tag);

/**
 * A listing's title, summary and description (products, bundles), in the words of `msg`: the rules
 * `listingTextProblems` applies in the browser. Empty is allowed: a draft may lack them.
 */
export const listingTextFields = (msg: ListingTextMessages) => ({
  title: z
    .string({ error: msg.titleRequired })
    .trim()
    .max(PRODUCT_TITLE_MAX, msg.titleMax)
    .refine(readable(false), msg.unreadable)
    .default(''),
  summary: z
    .string({ error: msg.summaryRequired })
    .trim()
    .max(PRODUCT_SUMMARY_MAX, msg.summaryMax)
    .refine(readable(false), msg.unreadable)
    .default(''),
  description: z
    .string()
    .max(PRODUCT_DESCRIPTION_MAX, msg.descriptionMax)
    .refine(readable(true), msg.unreadable)
    .default(''),
});

/** What the editor saves. A draft may lack a title, summary or plans; publishing needs them. */
export const vendorProductInput = z.object({
  kind: z.enum(productKinds, { error: m.kind }),
  ...listingTextFields(m),
  tags: z.array(tag).max(PRODUCT_TAGS_MAX, m.tagsMax).refine(unique, m.tagsUnique).default([]),
  platforms: z
    .array(z.enum(tradingPlatform.options, { error: m.platform }))
    .max(tradingPlatform.options.length, m.listUnique)
    .refine(unique, m.listUnique)
    .default([]),
  assetClasses: z
    .array(z.enum(assetClass.options, { error: m.assetClass }))
    .max(assetClass.options.length, m.listUnique)
    .refine(unique, m.listUnique)
    .default([]),
  prerequisiteIds: z
    .array(idSchema)
    .max(PRODUCT_PREREQUISITES_MAX, m.prerequisitesMax)
    .refine(unique, m.listUnique)
    .default([]),
  plans: z
    .array(vendorPlanInput)
    .max(PRODUCT_PLANS_MAX, m.plansMax)
    .refine((plans) => new Set(plans.map((p) => p.currency)).size <= 1, m.oneCurrency)
    .refine(
      (plans) => new Set(plans.map((p) => `${p.billing}:${p.trialDays}`)).size === plans.length,
      m.duplicatePlan,
    )
    .default([]),
});
export type VendorProductInput = z.input<typeof vendorProductInput>;

/** A save of an existing product: the input, and which version of it the editor started from. */
export const vendorProductUpdate = vendorProductInput.extend({
  /**
   * The `updatedAt` the editor loaded. When the product changed since (another tab), the save is
   * refused with 409 and nothing changes; left out, the save replaces whatever is there.
   */
  baseUpdatedAt: timestampInput({ offset: true, error: m.baseUpdatedAt }).optional(),
});
export type VendorProductUpdate = z.input<typeof vendorProductUpdate>;

export const vendorPlan = z
  .object({
    priceId: z.string(),
    billing: planBilling,
    amount: z.number().int(),
    currency: z.string(),
    trialDays: z.number().int(),
  })
  .meta({ id: 'VendorPlan' });
export type VendorPlan = z.infer<typeof vendorPlan>;

/** Where a listing (product or bundle) stands, as its editor shows it. */
export const listingStateFields = {
  status: vendorProductStatus,
  /** The public page (answers 404 unless published). */
  publicPath: z.string(),
  /** What publishing still needs, by field, in words; empty when it can be published. */
  missingToPublish: z.record(z.string(), z.string()),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  publishedAt: isoDateTime.nullable(),
};

/** A product as its vendor edits it, drafts included. */
export const vendorProduct = z
  .object({
    ...productHeadFields,
    description: z.string(),
    tags: z.array(z.string()),
    platforms: z.array(tradingPlatform),
    assetClasses: z.array(assetClass),
    prerequisites: z.array(z.object({ id: z.string(), title: z.string() })),
    plans: z.array(vendorPlan),
    /** Picture URLs, cover first (upload through `addVendorProductImage`). */
    images: z.array(z.string()),
    salesCount: z.number().int(),
    ...listingStateFields,
  })
  .meta({ id: 'VendorProduct' });
export type VendorProduct = z.infer<typeof vendorProduct>;

/** A row of the vendor's product list. */
export const vendorProductRow = vendorProduct
  .pick({
    id: true,
    slug: true,
    kind: true,
    status: true,
    title: true,
    publicPath: true,
    salesCount: true,
    updatedAt: true,
  })
  .extend({
    /** The default (first) plan; null while there is none. */
    price: vendorPlan.nullable(),
    plansCount: z.number().int(),
    imageUrl: z.string().nullable(),
  })
  .meta({ id: 'VendorProductRow' });
export type VendorProductRow = z.infer<typeof vendorProductRow>;

export const vendorProductsQuery = z.object({
  ...pageFields(VENDOR_PRODUCTS_PAGE_MAX),
  status: vendorProductStatus.optional(),
  kind: productKind.optional(),
});
export type VendorProductsQuery = z.input<typeof vendorProductsQuery>;

const productParams = z.object({ id: idSchema });
const productResponse = z.object({ product: vendorProduct });

export const vendorProductsRoutes = {
  vendorProducts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/products',
    auth: 'bearer',
    summary:
      'The vendor’s products, drafts included, most recently edited first; `status` and `kind` filter.',
    tags: ['vendor'],
    status: 200,
    query: vendorProductsQuery,
    response: z.object({ products: z.array(vendorProductRow), nextCursor: z.string().nullable() }),
  }),
  vendorProduct: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/products/{id}',
    auth: 'bearer',
    summary: 'One of the vendor’s products as the editor shows it.',
    tags: ['vendor'],
    status: 200,
    params: productParams,
    response: productResponse,
  }),
  createVendorProduct: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products',
    auth: 'bearer',
    apiKeyScope: 'products:write',
    summary: 'Creates a product as a draft: nobody else sees it until it is published.',
    tags: ['vendor'],
    status: 201,
    body: vendorProductInput,
    response: productResponse,
  }),
  updateVendorProduct: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/products/{id}',
    auth: 'bearer',
    apiKeyScope: 'products:write',
    summary:
      'Saves the whole product; with `baseUpdatedAt`, a product changed since the editor loaded it answers 409 and nothing is saved. A published product changes on its page, in search and in the sitemap at once. A plan whose price, billing or trial changed becomes a new plan; the old one is archived, so what buyers already paid stays as it was.',
    tags: ['vendor'],
    status: 200,
    params: productParams,
    body: vendorProductUpdate,
    response: productResponse,
  }),
  publishVendorProduct: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{id}/publish',
    auth: 'bearer',
    summary:
      'Publishes the product (a title, a summary and a plan are needed; 422 says what is missing). Publishing again changes nothing.',
    tags: ['vendor'],
    status: 200,
    params: productParams,
    response: productResponse,
  }),
  unpublishVendorProduct: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{id}/unpublish',
    auth: 'bearer',
    summary:
      'Hides the product from its page, search, the storefront and the sitemap. Buyers keep what they bought.',
    tags: ['vendor'],
    status: 200,
    params: productParams,
    response: productResponse,
  }),
  setVendorProductImages: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/products/{id}/images',
    auth: 'bearer',
    summary:
      'Keeps these pictures of the product (URLs as the product lists them), in this order: the first is the cover. Pictures left out are deleted.',
    tags: ['vendor'],
    status: 200,
    params: productParams,
    body: z.object({
      images: z
        .array(z.string().min(1).max(2000))
        .max(PRODUCT_IMAGES_MAX)
        .refine((l) => new Set(l).size === l.length, m.imagesUnique),
    }),
    response: productResponse,
  }),
  addVendorProductImage: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{id}/images',
    auth: 'bearer',
    summary:
      'Adds a picture to one of the vendor’s products, drafts included (multipart field `file`; PNG, JPEG or WebP up to 2 MB); the first is the cover.',
    tags: ['vendor'],
    status: 200,
    multipart: true,
    params: productParams,
    response: productResponse,
  }),
} as const;
