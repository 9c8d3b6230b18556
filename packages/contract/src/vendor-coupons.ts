import { z } from 'zod';
import { idSchema, isoDateTime, moneySchema, pageFields, timestampInput } from './common.ts';
import { couponCodeSchema, couponDuration } from './orders.ts';
import {
  COUPON_AMOUNT_MAX,
  COUPON_PRODUCTS_MAX,
  COUPON_REDEMPTIONS_MAX,
  couponScopes,
  couponStates,
  couponTypes,
  vendorSalesMessages as m,
} from './constants/vendor-sales.ts';
import { defineRoute } from './route.ts';

const limit = z
  .number({ error: m.couponLimitRange })
  .int(m.couponLimitRange)
  .min(1, m.couponLimitRange)
  .max(COUPON_REDEMPTIONS_MAX, m.couponLimitRange)
  .nullable();
const when = timestampInput({ offset: true, error: m.couponDate }).nullable();

/**
 * A vendor's coupon as they write it: percent (`percentOff`) or a fixed amount (`amountOff` in
 * minor units, with its `currency`); for all their products or the chosen ones; optional start,
 * end and limits (overall and per buyer). This schema checks each field; how fields go together
 * (a percent coupon needs `percentOff`, the end after the start …) is `couponProblems`
 * (`rules/vendor-sales.ts`), which the API applies after it and the web form applies alone.
 */
export const couponInput = z.object({
  code: couponCodeSchema,
  type: z.enum(couponTypes),
  percentOff: z
    .number({ error: m.couponPercentRange })
    .int(m.couponPercentRange)
    .min(1, m.couponPercentRange)
    .max(100, m.couponPercentRange)
    .nullable()
    .default(null),
  amountOff: z
    .number({ error: m.couponAmountRange })
    .int(m.couponAmountRange)
    .min(1, m.couponAmountRange)
    .max(COUPON_AMOUNT_MAX, m.couponAmountTooLarge)
    .nullable()
    .default(null),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/, m.couponCurrency)
    .nullable()
    .default(null),
  duration: couponDuration.default('once'),
  scope: z.enum(couponScopes).default('all'),
  productIds: z.array(idSchema).max(COUPON_PRODUCTS_MAX, m.couponProductsTooMany).default([]),
  startsAt: when.default(null),
  expiresAt: when.default(null),
  maxRedemptions: limit.default(null),
  maxPerBuyer: limit.default(null),
  isActive: z.boolean().default(true),
});
export type CouponInput = z.input<typeof couponInput>;
export type CouponValues = z.output<typeof couponInput>;

export const vendorCouponSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    type: z.enum(couponTypes),
    percentOff: z.number().int().nullable(),
    amountOff: moneySchema.nullable(),
    duration: couponDuration,
    scope: z.enum(couponScopes),
    products: z.array(z.object({ id: z.string(), title: z.string() })),
    startsAt: isoDateTime.nullable(),
    expiresAt: isoDateTime.nullable(),
    maxRedemptions: z.number().int().nullable(),
    maxPerBuyer: z.number().int().nullable(),
    /** Paid orders and checkouts in progress that hold it (what the limit counts). */
    redemptions: z.number().int(),
    isActive: z.boolean(),
    state: z.enum(couponStates),
    createdAt: isoDateTime,
  })
  .meta({ id: 'VendorCoupon' });
export type VendorCoupon = z.infer<typeof vendorCouponSchema>;

const couponParams = z.object({ id: idSchema });

export const vendorCouponsRoutes = {
  vendorCoupons: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/coupons',
    auth: 'bearer',
    summary:
      'The vendor’s coupons, newest first, with how often each was redeemed, and the products a coupon can be limited to.',
    tags: ['vendor'],
    status: 200,
    query: z.object({
      ...pageFields(50),
    }),
    response: z.object({
      coupons: z.array(vendorCouponSchema),
      nextCursor: z.string().nullable(),
      /** The vendor's products a coupon can be limited to. */
      products: z.array(z.object({ id: z.string(), title: z.string(), isActive: z.boolean() })),
    }),
  }),
  createVendorCoupon: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/coupons',
    auth: 'bearer',
    summary: 'Creates a coupon. Codes are unique per vendor, ignoring case.',
    tags: ['vendor'],
    status: 201,
    body: couponInput,
    response: z.object({ coupon: vendorCouponSchema }),
  }),
  updateVendorCoupon: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/coupons/{id}',
    auth: 'bearer',
    summary:
      'Replaces a coupon’s settings. Checkouts already started keep the price they were given.',
    tags: ['vendor'],
    status: 200,
    params: couponParams,
    body: couponInput,
    response: z.object({ coupon: vendorCouponSchema }),
  }),
  deleteVendorCoupon: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/coupons/{id}',
    auth: 'bearer',
    summary:
      'Deletes a coupon never used; one that was used is deactivated instead, so past orders keep it.',
    tags: ['vendor'],
    status: 200,
    params: couponParams,
    response: z.object({
      deleted: z.boolean(),
      coupon: vendorCouponSchema.nullable(),
      message: z.string(),
    }),
  }),
} as const;
