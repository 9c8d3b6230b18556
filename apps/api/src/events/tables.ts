import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { refColumn, ts } from '../db/columns.ts';

/** The event log: written in the same transaction as the change it describes (ADR 028). */
export const domainEvents = pgTable(
  'domain_events',
  {
    /** Global position, for reading the log in order; never exposed. */
    position: bigserial('position', { mode: 'number' }).primaryKey(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    stream: text('stream').notNull(),
    version: integer('version').notNull(),
    data: jsonb('data').notNull(),
    occurredAt: ts('occurred_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('domain_events_id_idx').on(t.id),
    uniqueIndex('domain_events_stream_version_idx').on(t.stream, t.version),
  ],
);

/** Each stream's last version: the upsert that bumps it orders the stream's publishers. */
export const eventStreams = pgTable('event_streams', {
  stream: text('stream').primaryKey(),
  version: integer('version').notNull(),
});

/** One row per event and subscriber, written with the event; delivered once its predecessors are. */
export const eventDeliveries = pgTable(
  'event_deliveries',
  {
    eventId: refColumn('event_id', () => domainEvents.id),
    subscriber: text('subscriber').notNull(),
    stream: text('stream').notNull(),
    version: integer('version').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.subscriber] }),
    index('event_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
    index('event_deliveries_queue_idx')
      .on(t.subscriber, t.stream, t.version)
      .where(sql`${t.deliveredAt} is null`),
  ],
);
