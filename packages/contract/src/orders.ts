import { z } from 'zod';
import {
  idSchema,
  isoDateTime,
  moneySchema,
  pageFields,
  textField,
  timestampInput,
} from './common.ts';
import { priceIntervals, vendorUrlSchema } from './catalog.ts';
import {
  entitlementKinds,
  purchaseStatuses,
  refundReasons,
  subscriptionStatuses,
} from './constants/orders.ts';
import { ordersMessages, REVOKE_REASON_MAX } from './constants/orders-messages.ts';
import { planIds } from './constants/membership.ts';
import { connectPurposes } from './constants/affiliates.ts';
import { totpCodeSchema } from './auth.ts';
import { defineRoute } from './route.ts';
import { saleFilters } from './constants/vendor-sales.ts';
import { COUPON_CODE_MAX, couponCodePattern, validateCouponCode } from './rules/coupon.ts';
import { REF_ID_MAX, refIdPattern, validateRefId } from './rules/ref-id.ts';

export * from './constants/orders.ts';
export * from './constants/orders-messages.ts';

export const purchaseStatus = z.enum(purchaseStatuses);
export const subscriptionStatus = z.enum(subscriptionStatuses);

/** Coupon codes (the rule is `validateCouponCode`); matched case-insensitively. */
export const couponCodeSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = validateCouponCode(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ minLength: 1, maxLength: COUPON_CODE_MAX, pattern: couponCodePattern.source });

/** A plan of a product: the one-time price, or a recurring interval. */
export const checkoutScheme = z.enum(['one_time', ...priceIntervals]);
export type CheckoutScheme = z.infer<typeof checkoutScheme>;

/** Referral ids as the `referral_id` cookie carries them (the rule is `validateRefId`). */
export const refIdSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = validateRefId(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ maxLength: REF_ID_MAX, pattern: refIdPattern.source });

export const checkoutProductBody = z.object({
  priceId: idSchema,
  coupon: couponCodeSchema.optional(),
  scheme: checkoutScheme.optional(),
  refId: refIdSchema.optional(),
});
export type CheckoutProductBody = z.infer<typeof checkoutProductBody>;

export const checkoutBundleBody = z.object({
  bundleId: idSchema,
  coupon: couponCodeSchema.optional(),
  refId: refIdSchema.optional(),
});
export type CheckoutBundleBody = z.infer<typeof checkoutBundleBody>;

export const checkoutResponse = z.object({
  url: z.string(),
  sessionId: z.string(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

export const couponDuration = z.enum(['once', 'forever']);
export const couponPreview = z
  .object({
    code: z.string(),
    /** `percent`: percentOff of the price; `amount`: a fixed amount off. */
    type: z.enum(['percent', 'amount']),
    percentOff: z.number().int().nullable(),
    amountOff: z.number().int().nullable(),
    /** For subscriptions: the first payment only, or every payment. */
    duration: couponDuration,
    subtotal: moneySchema,
    discount: moneySchema,
    total: moneySchema,
  })
  .meta({ id: 'CouponPreview' });
export type CouponPreview = z.infer<typeof couponPreview>;

export const entitlementSchema = z.object({
  kind: z.enum(entitlementKinds),
  productId: z.string(),
  productTitle: z.string(),
  productSlug: z.string(),
  status: z.enum(['active', 'ended']),
  /** When access ends (subscriptions cancelled at period end), else null. */
  endsAt: isoDateTime.nullable(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

export const purchaseSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    status: purchaseStatus,
    /** What was bought: one product at one price, or a bundle. */
    item: z.object({
      type: z.enum(['product', 'bundle']),
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      priceId: z.string(),
      vendor: z.object({ vendorUrl: z.string(), displayName: z.string() }),
    }),
    scheme: checkoutScheme,
    subtotal: moneySchema,
    discount: moneySchema,
    total: moneySchema,
    /**
     * Charged so far, over all of its payments. Starting a free trial charges nothing, so this is 0
     * until the trial converts; a one-time purchase's is its total once paid.
     */
    paid: moneySchema,
    /** Refunded to the buyer so far, over all of its payments (0 when nothing was refunded). */
    refunded: moneySchema,
    coupon: z.object({ code: z.string(), duration: couponDuration }).nullable(),
    /**
     * The member price the buyer got (ADR 027): `discount` off every payment of this purchase, paid out
     * of the platform's fee. Null when none applied. `total` already has it taken off.
     */
    memberPrice: z.object({ plan: z.enum(planIds), discount: moneySchema }).nullable(),
    subscription: z
      .object({
        status: subscriptionStatus,
        currentPeriodEnd: isoDateTime.nullable(),
        /** What each renewal costs after any first-payment-only coupon. */
        renewalAmount: moneySchema,
        /** When the free trial ends (while trialing), else null. */
        trialEndsAt: isoDateTime.nullable(),
        /**
         * The next charge and its date: the first payment when a trial ends (with any coupon), else
         * the renewal. Null when nothing more will be charged (cancelling or ended).
         */
        nextPayment: z.object({ amount: moneySchema, at: isoDateTime }).nullable(),
      })
      .nullable(),
    receiptNumber: z.string().nullable(),
    entitlements: z.array(entitlementSchema),
    createdAt: isoDateTime,
    paidAt: isoDateTime.nullable(),
    refundedAt: isoDateTime.nullable(),
    /**
     * Why the purchase was refunded when we did it ourselves: `duplicate` when the buyer already owned
     * the item by the time this payment arrived (two checkouts paid in two tabs). Null otherwise.
     */
    refundReason: z.enum(refundReasons).nullable(),
    /** When the buyer disputed a payment with their bank; access ends while it is disputed. */
    disputedAt: isoDateTime.nullable(),
    /** When the vendor ended the buyer's access, and the reason they gave; else null. */
    revoked: z.object({ at: isoDateTime, reason: z.string() }).nullable(),
  })
  .meta({ id: 'Purchase' });
export type Purchase = z.infer<typeof purchaseSchema>;

/**
 * A sale's money from its ledger lines, the one source the sales list, the sale's page, analytics and
 * the CSV export read (issue 27): gross - refunded - (disputed) = fees + affiliate + net.
 */
export const saleMoneySchema = z
  .object({
    /** Charged to the buyer, all payments. */
    gross: moneySchema,
    /** Returned to the buyer through refunds. */
    refunded: moneySchema,
    /** The platform's fee, after refunds gave their share back. */
    fees: moneySchema,
    affiliate: moneySchema,
    /** What the vendor keeps. */
    net: moneySchema,
  })
  .meta({ id: 'SaleMoney' });
export type SaleMoney = z.infer<typeof saleMoneySchema>;

/** A sale as its vendor sees it: the purchase and who bought it. */
export const vendorSaleSchema = purchaseSchema
  .extend({
    buyer: z.object({ email: z.string(), username: z.string().nullable() }),
    money: saleMoneySchema,
    /** Vendor refunds asked of the provider and not yet confirmed by it. */
    pendingRefund: moneySchema,
    /** What is left to refund of the latest payment (after pending refunds). */
    refundable: moneySchema,
  })
  .meta({ id: 'VendorSale' });
export type VendorSale = z.infer<typeof vendorSaleSchema>;

export const revokeAccessBody = z.object({
  reason: textField({
    required: ordersMessages.revokeReasonRequired,
    max: REVOKE_REASON_MAX,
    tooLong: ordersMessages.revokeReasonTooLong,
    multiline: true,
  }),
});
export type RevokeAccessBody = z.input<typeof revokeAccessBody>;

/** Whose payout account a connect call is about (vendor sales or affiliate payouts). */
const connectQuery = z.object({ as: z.enum(connectPurposes).optional() });

export const ordersRoutes = {
  checkoutProduct: defineRoute({
    method: 'POST',
    path: '/api/v1/user/product',
    auth: 'bearer',
    summary:
      'Start checkout for a product plan. Send an `Idempotency-Key` header to make retries return the same session.',
    tags: ['checkout'],
    status: 201,
    query: z.object({ vendorUrl: vendorUrlSchema }),
    body: checkoutProductBody,
    response: checkoutResponse,
  }),
  checkoutBundle: defineRoute({
    method: 'POST',
    path: '/api/v1/user/bundle',
    auth: 'bearer',
    summary: 'Start checkout for a bundle, with an optional vendor coupon.',
    tags: ['checkout'],
    status: 201,
    body: checkoutBundleBody,
    response: checkoutResponse,
  }),
  previewCoupon: defineRoute({
    method: 'GET',
    path: '/api/v1/coupons/preview',
    auth: 'optional',
    summary: 'Check a coupon against a product price or a bundle and show the discounted total.',
    tags: ['checkout'],
    status: 200,
    query: z
      .object({
        code: couponCodeSchema,
        priceId: idSchema.optional(),
        bundleId: idSchema.optional(),
      })
      .refine((q) => Boolean(q.priceId) !== Boolean(q.bundleId), {
        message: 'Give either priceId or bundleId.',
        path: ['priceId'],
      }),
    response: z.object({ coupon: couponPreview }),
  }),
  purchaseStatus: defineRoute({
    method: 'GET',
    path: '/api/v1/purchase/session/{id}',
    auth: 'bearer',
    summary: 'The purchase behind a checkout session, for the return page.',
    tags: ['orders'],
    status: 200,
    // A provider's session id: Stripe's are 66 characters in test mode, and may be up to 255.
    params: z.object({ id: z.string().min(1).max(255) }),
    response: z.object({ purchase: purchaseSchema }),
  }),
  purchaseList: defineRoute({
    method: 'GET',
    path: '/api/v1/purchases/buyer/list',
    auth: 'bearer',
    summary: "The buyer's purchases, newest first.",
    tags: ['orders'],
    status: 200,
    query: z.object({
      ...pageFields(50),
    }),
    response: z.object({ purchases: z.array(purchaseSchema), nextCursor: z.string().nullable() }),
  }),
  purchaseDetails: defineRoute({
    method: 'GET',
    path: '/api/v1/purchases/buyer/{id}',
    auth: 'bearer',
    summary: "One of the buyer's own purchases.",
    tags: ['orders'],
    status: 200,
    params: z.object({ id: idSchema }),
    response: z.object({ purchase: purchaseSchema }),
  }),
  customerPortal: defineRoute({
    method: 'GET',
    path: '/api/v1/payment/customer-portal',
    auth: 'bearer',
    summary: "A link to manage the buyer's subscriptions and payment methods with this vendor.",
    tags: ['orders'],
    status: 200,
    query: z.object({ vendorUrl: vendorUrlSchema }),
    response: z.object({ session: z.object({ url: z.string() }) }),
  }),
  connectAccount: defineRoute({
    method: 'POST',
    path: '/api/v1/payment/connect-account',
    auth: 'bearer',
    summary:
      "Start (or resume) payout onboarding with the payment provider; returns the onboarding link. Needs two-factor authentication on and a current code (403 otherwise). `as` picks whose account: a vendor's (the default for vendors) or an affiliate's (the default for everyone else).",
    tags: ['payments'],
    status: 200,
    query: connectQuery,
    /** Changing where money goes needs two-factor on and a fresh code (ADR 054). */
    body: z.object({ twoFactorCode: totpCodeSchema.optional() }),
    response: z.object({ url: z.string() }),
  }),
  connectAccountCallback: defineRoute({
    method: 'POST',
    path: '/api/v1/payment/connect-account-callback',
    auth: 'bearer',
    summary:
      'After onboarding: refresh whether the connected account can take payments (vendors) or receive payouts (affiliates).',
    tags: ['payments'],
    status: 200,
    query: connectQuery,
    response: z.object({
      message: z.string(),
      chargesEnabled: z.boolean(),
      payoutsEnabled: z.boolean().optional(),
    }),
  }),
  vendorSales: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/purchases',
    auth: 'bearer',
    apiKeyScope: 'sales:read',
    summary:
      "The vendor's paid sales with their buyers, newest first (checkouts never paid are left out). Filter by `status`, `productId` (sales of that product), the paid time (`from`, `to`) and `q`: a purchase id (the trace id in a download's `LICENSE-<id>.txt`) or a receipt number.",
    tags: ['vendor'],
    status: 200,
    query: z.object({
      ...pageFields(50),
      status: z.enum(saleFilters).optional(),
      productId: idSchema.optional(),
      /** Paid on or after this time. */
      from: timestampInput({ offset: true }).optional(),
      /** Paid before this time. */
      to: timestampInput({ offset: true }).optional(),
      /** A purchase id (a traced archive's `LICENSE-<id>.txt` names it) or a receipt number. */
      q: z.string().trim().max(100).optional(),
    }),
    response: z.object({ sales: z.array(vendorSaleSchema), nextCursor: z.string().nullable() }),
  }),
  vendorRevokeAccess: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/purchases/{id}/revoke',
    auth: 'bearer',
    apiKeyScope: 'licences:write',
    summary:
      "Ends the buyer's access to one of the vendor's sales, with a reason the buyer is sent. An active subscription is cancelled at the provider first (no further charges); no money is refunded. Repeating it changes nothing.",
    tags: ['vendor'],
    status: 200,
    params: z.object({ id: idSchema }),
    body: revokeAccessBody,
    response: z.object({ sale: vendorSaleSchema }),
  }),
} as const;
