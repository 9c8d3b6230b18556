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
import { idColumn, ts } from '../../db/columns.ts';

/**
 * The Stripe-compatible sandbox (`/v1/...`): every object it holds, as the JSON its API answers
 * (typed with the `stripe` package where it is built). `seq` orders lists newest first, as Stripe
 * does; `private` keeps what Stripe keeps but does not show (a session's creation parameters).
 */
export const sandboxStripeObjects = pgTable(
  'sandbox_stripe_objects',
  {
    id: idColumn(),
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
    id: idColumn(),
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
