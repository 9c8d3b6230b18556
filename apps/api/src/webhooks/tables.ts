import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, ts } from '../db/columns.ts';

/**
 * Where outbound webhooks go (ADR 057). The delivery engine owns these; a slice that offers
 * webhooks (vendors now, buyers' alerts later) owns who an endpoint belongs to: `owner_kind` names
 * the slice, `owner_id` its owner (a vendor id …), and the slice checks ownership before any change.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: idColumn(),
    ownerKind: text('owner_kind').notNull(),
    ownerId: text('owner_id').notNull(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** `failing` when the engine turned it off after too many failures in a row. */
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** The `whsec_…` secret, sealed: it must be read back to sign, so it cannot be hashed. */
    secretSealed: text('secret_sealed').notNull(),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoints_owner_idx').on(t.ownerKind, t.ownerId)],
);

/**
 * The outbox: one row per endpoint and event, written in the transaction that decided to send it.
 * `seq` orders an object's messages; `id` is the `webhook-id` every attempt and resend carries.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull(),
    endpointId: refColumn('endpoint_id', () => webhookEndpoints.id),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    /** The object the event is about (a sale, a licence …): its messages go out in `seq` order. */
    objectKey: text('object_key').notNull(),
    /** The exact bytes sent, so a resend is the same body. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /** Past this, a failure gives up (a day after it was queued or resent). */
    giveUpAt: ts('give_up_at').notNull(),
    lastAttemptAt: ts('last_attempt_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_messages_id_idx').on(t.id),
    // A domain event delivered twice to the fan-out queues one message per endpoint.
    uniqueIndex('webhook_messages_endpoint_event_idx').on(t.endpointId, t.eventId),
    index('webhook_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_messages_object_idx')
      .on(t.endpointId, t.objectKey, t.seq)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_messages_log_idx').on(t.endpointId, t.seq),
  ],
);
