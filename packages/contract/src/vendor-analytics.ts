import { z } from 'zod';
import { idSchema } from './common.ts';
import {
  ANALYTICS_INTERVALS,
  validateAnalyticsRange,
  vendorAnalyticsMessages as m,
} from './constants/vendor-analytics.ts';
import { defineRoute } from './route.ts';

export * from './constants/vendor-analytics.ts';

// The pattern is published in the OpenAPI document; the calendar check (no 31 February) is the range rule's.
const day = z
  .string({ error: m.date })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, m.date);

/** The filters of the analytics screen and its CSV export (dates are UTC days, both counted). */
export const vendorAnalyticsQuery = z
  .object({
    from: day.optional(),
    to: day.optional(),
    interval: z.enum(ANALYTICS_INTERVALS, { error: m.interval }).default('day'),
    productId: idSchema.optional(),
  })
  .superRefine((q, ctx) => {
    for (const [field, message] of Object.entries(validateAnalyticsRange(q.from, q.to)))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });
export type VendorAnalyticsQuery = z.input<typeof vendorAnalyticsQuery>;

/** Amounts are integer minor units of the row's `currency`; currencies are never added together. */
const figures = {
  /** Charged to buyers. */
  gross: z.number().int(),
  /** Returned to buyers. */
  refunds: z.number().int(),
  /** The platform's fee, net of refunds. */
  fee: z.number().int(),
  /** Affiliates' commission, net of refunds. */
  affiliate: z.number().int(),
  /** What the vendor keeps: gross - refunds - fee - affiliate. */
  net: z.number().int(),
  /** Payments (renewals included). */
  sales: z.number().int(),
  refundCount: z.number().int(),
};

export const analyticsPointSchema = z
  .object({
    /** The first day of the bucket (`YYYY-MM-DD`; weeks start on Monday). */
    period: z.string(),
    ...figures,
  })
  .meta({ id: 'VendorAnalyticsPoint' });
export type AnalyticsPoint = z.infer<typeof analyticsPointSchema>;

export const analyticsTotalsSchema = z
  .object({ currency: z.string(), ...figures })
  .meta({ id: 'VendorAnalyticsTotals' });
export type AnalyticsTotals = z.infer<typeof analyticsTotalsSchema>;

export const topProductSchema = z
  .object({
    itemType: z.enum(['product', 'bundle']),
    itemId: z.string(),
    title: z.string(),
    currency: z.string(),
    gross: z.number().int(),
    net: z.number().int(),
    sales: z.number().int(),
  })
  .meta({ id: 'VendorTopProduct' });
export type TopProduct = z.infer<typeof topProductSchema>;

export const conversionSchema = z
  .object({
    productId: z.string(),
    title: z.string(),
    /** Views of the product's page in the range. */
    views: z.number().int(),
    /** Paid payments in the range. */
    sales: z.number().int(),
    /** sales / views; null without views. */
    rate: z.number().nullable(),
  })
  .meta({ id: 'VendorConversion' });
export type Conversion = z.infer<typeof conversionSchema>;

export const vendorAnalyticsSchema = z
  .object({
    range: z.object({
      from: z.string(),
      to: z.string(),
      interval: z.enum(ANALYTICS_INTERVALS),
      productId: z.string().nullable(),
    }),
    /** One series per currency, every bucket of the range present (zeros included), oldest first. */
    series: z.array(z.object({ currency: z.string(), points: z.array(analyticsPointSchema) })),
    /** Per currency, the currency with the most gross first. */
    totals: z.array(analyticsTotalsSchema),
    topProducts: z.object({
      byNet: z.array(topProductSchema),
      bySales: z.array(topProductSchema),
    }),
    conversion: z.array(conversionSchema),
    /** The vendor's products and bundles, for the filter (`productId` takes either). */
    products: z.array(
      z.object({ id: z.string(), title: z.string(), type: z.enum(['product', 'bundle']) }),
    ),
  })
  .meta({ id: 'VendorAnalytics' });
export type VendorAnalytics = z.infer<typeof vendorAnalyticsSchema>;

export const vendorAnalyticsRoutes = {
  vendorAnalytics: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/analytics',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary:
      "The caller's revenue (gross, net), sales, refunds and affiliate share over time per currency, totals, top products and conversion from product page views.",
    tags: ['vendor'],
    status: 200,
    query: vendorAnalyticsQuery,
    response: vendorAnalyticsSchema,
  }),
  vendorAnalyticsExport: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/analytics/export.csv',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary:
      'The same range as CSV: one row per payment or refund with date, product, buyer, gross, fee, affiliate, net, currency and status.',
    tags: ['vendor'],
    status: 200,
    query: vendorAnalyticsQuery,
    produces: 'text/csv',
    response: z.custom<Blob>(),
  }),
} as const;
