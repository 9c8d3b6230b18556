import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bundles, productColumn, products, vendorColumn, vendors } from '../catalog/tables.ts';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, money, refColumn, timestamps, ts } from '../../db/columns.ts';

/** Vendor coupons: percent or fixed amount, optionally scoped to one product. */
export const coupons = pgTable(
  'coupons',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    code: text('code').notNull(),
    type: text('type', { enum: ['percent', 'amount'] }).notNull(),
    percentOff: integer('percent_off'),
    amountOff: integer('amount_off'),
    currency: text('currency'),
    productId: text('product_id').references(() => products.id, { onDelete: 'cascade' }),
    duration: text('duration', { enum: ['once', 'forever'] })
      .notNull()
      .default('once'),
    expiresAt: ts('expires_at'),
    maxRedemptions: integer('max_redemptions'),
    /** Held by pending checkouts and paid orders; released when a checkout is cancelled or expires. */
    redemptions: integer('redemptions').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    startsAt: ts('starts_at'),
    /** How many of a buyer's orders (paid, or one checkout in progress) may use it. */
    maxPerBuyer: integer('max_per_buyer'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('coupons_vendor_code_key').on(t.vendorId, sql`upper(${t.code})`),
    check(
      'coupons_redemptions_within_max',
      sql`${t.maxRedemptions} is null or ${t.redemptions} <= ${t.maxRedemptions}`,
    ),
  ],
);

/** The products a coupon is limited to (none: all of its vendor's products and bundles). */
export const couponProducts = pgTable(
  'coupon_products',
  {
    couponId: refColumn('coupon_id', () => coupons.id),
    productId: productColumn(),
  },
  (t) => [primaryKey({ columns: [t.couponId, t.productId] })],
);

/** A checkout and, once paid, the order it became. */
export const purchases = pgTable(
  'purchases',
  {
    id: idColumn(),
    buyerId: refColumn('buyer_id', () => users.id, 'restrict'),
    vendorId: refColumn('vendor_id', () => vendors.id, 'restrict'),
    provider: text('provider', { enum: ['stripe'] }).notNull(),
    sessionId: text('session_id'),
    checkoutUrl: text('checkout_url'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Hash of what was asked for, so a reused Idempotency-Key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled', 'refunded'] })
      .notNull()
      .default('pending'),
    itemType: text('item_type', { enum: ['product', 'bundle'] }).notNull(),
    productId: text('product_id').references(() => products.id, { onDelete: 'restrict' }),
    bundleId: text('bundle_id').references(() => bundles.id, { onDelete: 'restrict' }),
    priceId: text('price_id').notNull(),
    scheme: text('scheme').notNull(),
    currency: text('currency').notNull(),
    subtotal: integer('subtotal').notNull(),
    discount: integer('discount').notNull().default(0),
    total: integer('total').notNull(),
    /** What each renewal costs (subscriptions), after a first-payment-only coupon stops applying. */
    renewalAmount: integer('renewal_amount'),
    couponId: text('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    couponCode: text('coupon_code'),
    /** The plan whose member price applied (ADR 027), and what it took off every payment. */
    memberPlan: text('member_plan', { enum: ['premium', 'pro_plus'] }),
    memberDiscount: integer('member_discount').notNull().default(0),
    couponDuration: text('coupon_duration', { enum: ['once', 'forever'] }),
    couponReleased: boolean('coupon_released').notNull().default(false),
    refId: text('ref_id'),
    affiliateUserId: text('affiliate_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    affiliateBps: integer('affiliate_bps'),
    trialDays: integer('trial_days'),
    subscriptionId: text('subscription_id'),
    subscriptionStatus: text('subscription_status', {
      enum: ['trialing', 'active', 'past_due', 'cancelling', 'ended'],
    }),
    currentPeriodEnd: ts('current_period_end'),
    customerId: text('customer_id'),
    receiptNumber: text('receipt_number'),
    expiresAt: ts('expires_at').notNull(),
    paidAt: ts('paid_at'),
    failedAt: ts('failed_at'),
    cancelledAt: ts('cancelled_at'),
    refundedAt: ts('refunded_at'),
    disputedAt: ts('disputed_at'),
    /** Set when we refunded it ourselves (`duplicate`: the buyer already owned the item). */
    refundReason: text('refund_reason', { enum: ['duplicate', 'coupon_limit'] }),
    /** A vendor ended the buyer's access (no money moves): when, why and who. */
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    revokedBy: text('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('purchases_buyer_idempotency_key').on(t.buyerId, t.idempotencyKey),
    uniqueIndex('purchases_session_key').on(t.sessionId),
    uniqueIndex('purchases_receipt_key').on(t.receiptNumber),
    index('purchases_buyer_created_idx').on(t.buyerId, t.createdAt.desc(), t.id.desc()),
    index('purchases_vendor_created_idx').on(t.vendorId, t.createdAt.desc(), t.id.desc()),
    index('purchases_affiliate_created_idx')
      .on(t.affiliateUserId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.affiliateUserId} is not null`),
    index('purchases_coupon_buyer_idx')
      .on(t.couponId, t.buyerId)
      .where(sql`${t.couponId} is not null`),
    index('purchases_pending_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    // The lapse job's scan: only subscriptions cancelled at period end.
    index('purchases_cancelling_period_idx')
      .on(t.currentPeriodEnd)
      .where(sql`${t.subscriptionStatus} = 'cancelling'`),
  ],
);

/**
 * Every money movement, in minor units. Each payment writes a set that sums to zero: the provider
 * clearing account pays out to the platform fee, the vendor's share and any affiliate commission.
 * Balances are sums per account.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: idColumn(),
    /** Null for money that leaves through a transfer (an affiliate payout and its return). */
    purchaseId: text('purchase_id').references(() => purchases.id, { onDelete: 'restrict' }),
    /** The provider's payment (or refund) reference: one set per payment. */
    paymentRef: text('payment_ref').notNull(),
    entryType: text('entry_type', {
      enum: [
        'sale',
        'platform_fee',
        'vendor_share',
        'affiliate_commission',
        'refund_reversal',
        'affiliate_payout',
        'affiliate_payout_return',
      ],
    }).notNull(),
    accountType: text('account_type', {
      enum: ['clearing', 'platform', 'vendor', 'affiliate'],
    }).notNull(),
    accountId: text('account_id').notNull(),
    ...money(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_payment_entry_key').on(
      t.purchaseId,
      t.paymentRef,
      t.entryType,
      t.accountType,
    ),
    index('ledger_entries_account_idx').on(t.accountType, t.accountId),
    uniqueIndex('ledger_entries_transfer_entry_key')
      .on(t.paymentRef, t.entryType, t.accountType)
      .where(sql`${t.purchaseId} is null`),
    index('ledger_entries_affiliate_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.accountType} = 'affiliate'`),
    index('ledger_entries_vendor_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.accountType} = 'vendor'`),
  ],
);

/** Provider webhook events already processed: the deduplication record. */
export const paymentEvents = pgTable('payment_events', {
  id: idColumn(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  purchaseId: text('purchase_id'),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

/**
 * A buyer's customer record at the payment provider, one per vendor they buy from, so the customer
 * portal opened from one vendor's order shows that vendor's subscriptions only. Rows from before
 * vendors were separated have `vendor_id` ''.
 */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: userColumn(),
    provider: text('provider').notNull(),
    vendorId: text('vendor_id').notNull().default(''),
    customerId: text('customer_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider, t.vendorId] })],
);

/** A vendor's connected account at the provider (Stripe Connect). */
export const vendorPaymentAccounts = pgTable(
  'vendor_payment_accounts',
  {
    vendorId: vendorColumn(),
    provider: text('provider').notNull(),
    accountId: text('account_id').notNull(),
    chargesEnabled: boolean('charges_enabled').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.provider] })],
);

/**
 * Refunds we owe a buyer on our own initiative (a second payment for something already owned),
 * written with the decision and carried out at the provider by a retrying job.
 */
export const autoRefunds = pgTable(
  'auto_refunds',
  {
    purchaseId: text('purchase_id')
      .primaryKey()
      .references(() => purchases.id, { onDelete: 'restrict' }),
    /** `duplicate`: a second payment; `revoked`: the vendor ended access (cancel only, no refund). */
    reason: text('reason', { enum: ['duplicate', 'revoked'] }).notNull(),
    /** The payment to refund; null when nothing was charged (a trial). */
    paymentRef: text('payment_ref'),
    /** A subscription to end at the provider, if the duplicate was one. */
    subscriptionId: text('subscription_id'),
    status: text('status', { enum: ['pending', 'done'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    doneAt: ts('done_at'),
  },
  (t) => [
    index('auto_refunds_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * A vendor's refund of one payment (ADR 042), written before the provider is asked: the idempotency
 * record, and while `pending` it holds its amount so concurrent refunds never exceed what is left.
 * The provider's `refund` event settles it (`target_total`: the payment's refunded total it reaches).
 */
export const vendorRefunds = pgTable(
  'vendor_refunds',
  {
    id: idColumn(),
    purchaseId: refColumn('purchase_id', () => purchases.id, 'restrict'),
    vendorId: refColumn('vendor_id', () => vendors.id, 'restrict'),
    paymentRef: text('payment_ref').notNull(),
    ...money(),
    targetTotal: integer('target_total').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    failure: text('failure'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
    /** Times the provider was asked (the request is the first), and when the job asks again. */
    attempts: integer('attempts').notNull().default(1),
    nextAttemptAt: ts('next_attempt_at')
      .notNull()
      .default(sql`now() + interval '5 minutes'`),
  },
  (t) => [
    uniqueIndex('vendor_refunds_idempotency_key').on(t.vendorId, t.idempotencyKey),
    index('vendor_refunds_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('vendor_refunds_purchase_idx').on(t.purchaseId, t.createdAt),
    check('vendor_refunds_amount_positive', sql`${t.amount} > 0`),
    check('vendor_refunds_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/**
 * The ledger summed per vendor, day (UTC), item and currency (ADR 043). Written only by the
 * ledger_entries triggers of migration 0033, in the ledger writer's transaction; read by
 * `vendorLedgerSeries` and `vendorLedgerItems`.
 */
export const vendorSalesDaily = pgTable(
  'vendor_sales_daily',
  {
    vendorId: text('vendor_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    itemType: text('item_type', { enum: ['product', 'bundle'] }).notNull(),
    itemId: text('item_id').notNull(),
    currency: text('currency').notNull(),
    gross: bigint('gross', { mode: 'number' }).notNull().default(0),
    refunds: bigint('refunds', { mode: 'number' }).notNull().default(0),
    fee: bigint('fee', { mode: 'number' }).notNull().default(0),
    affiliate: bigint('affiliate', { mode: 'number' }).notNull().default(0),
    net: bigint('net', { mode: 'number' }).notNull().default(0),
    sales: integer('sales').notNull().default(0),
    refundCount: integer('refund_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.day, t.itemId, t.currency] })],
);
