import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CheckoutRequest } from './port.ts';
import { ts } from '../../db/columns.ts';

/** The payment sandbox's own state: what Stripe would hold for a checkout and its subscription. */
export const sandboxSessions = pgTable(
  'sandbox_sessions',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    purchaseId: text('purchase_id').notNull(),
    request: jsonb('request').$type<CheckoutRequest>().notNull(),
    status: text('status', { enum: ['open', 'paid', 'cancelled'] })
      .notNull()
      .default('open'),
    customerId: text('customer_id').notNull(),
    paymentRef: text('payment_ref'),
    subscriptionId: text('subscription_id'),
    subscriptionStatus: text('subscription_status', { enum: ['active', 'cancelling', 'ended'] }),
    currentPeriodEnd: ts('current_period_end'),
    renewals: jsonb('renewals').$type<string[]>().notNull().default([]),
    refundedAt: ts('refunded_at'),
    /** Refunds asked by the app: idempotency key, payment and amount (a repeat key refunds once). */
    refunds: jsonb('refunds')
      .$type<Array<{ key: string; paymentRef: string; amount: number }>>()
      .notNull()
      .default([]),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_sessions_idempotency_key').on(t.idempotencyKey)],
);

/**
 * The sandbox's webhook outbox: each event is written in the same transaction as the session change
 * it reports, then delivered, and retried with backoff until the endpoint takes it (as Stripe retries
 * for three days). A crash between the two loses nothing.
 */
export const sandboxEvents = pgTable(
  'sandbox_events',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').notNull(),
    type: text('type').notNull(),
    /** The event's JSON exactly as delivered; it is signed anew on every attempt. */
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_events_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
    index('sandbox_events_session_idx').on(t.sessionId, t.createdAt),
  ],
);

/** The sandbox's transfers to connected accounts: paid at once, failed or reversed by hand. */
export const sandboxTransfers = pgTable(
  'sandbox_transfers',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    accountId: text('account_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: ['paid', 'failed', 'reversed'] })
      .notNull()
      .default('paid'),
    failureReason: text('failure_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_transfers_idempotency_key').on(t.idempotencyKey)],
);

/** The sandbox's connected accounts: `new` until its onboarding page is filled in (ADR 041). */
export const sandboxConnectAccounts = pgTable('sandbox_connect_accounts', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  state: text('state', { enum: ['new', 'pending_verification', 'active', 'restricted'] })
    .notNull()
    .default('new'),
  businessName: text('business_name'),
  /** Where the onboarding page sends the browser back to, from the latest onboarding link. */
  returnUrl: text('return_url').notNull().default(''),
  refreshUrl: text('refresh_url').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The Stripe-compatible sandbox (`/v1/...`): every object it holds, as the JSON its API answers
 * (typed with the `stripe` package where it is built). `seq` orders lists newest first, as Stripe
 * does; `private` keeps what Stripe keeps but does not show (a session's creation parameters).
 */
export const sandboxStripeObjects = pgTable(
  'sandbox_stripe_objects',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    private: jsonb('private').$type<Record<string, unknown>>().notNull().default({}),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sandbox_stripe_objects_type_seq_idx').on(t.type, t.seq)],
);

/**
 * The sandbox's request log and idempotency store (Stripe's dashboard "Logs"): one row per request.
 * A POST with an `Idempotency-Key` is answered once; a replay is logged pointing at the original.
 * `status` is null while the original is still being answered (a concurrent retry then gets 409).
 */
export const sandboxStripeRequests = pgTable(
  'sandbox_stripe_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: text('request_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    idempotencyKey: text('idempotency_key'),
    bodyHash: text('body_hash').notNull(),
    status: integer('status'),
    response: jsonb('response').$type<unknown>(),
    replayOf: bigint('replay_of', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_stripe_requests_idempotency_key')
      .on(t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null and ${t.replayOf} is null`),
    index('sandbox_stripe_requests_path_idx').on(t.path, t.id),
  ],
);

/**
 * The Stripe sandbox's events (`GET /v1/events`) and their webhook outbox: written in the
 * transaction that changes the object, then delivered with a `Stripe-Signature`, retried with
 * backoff for three days as Stripe retries.
 */
export const sandboxStripeEvents = pgTable(
  'sandbox_stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_stripe_events_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
    index('sandbox_stripe_events_seq_idx').on(t.seq),
  ],
);
