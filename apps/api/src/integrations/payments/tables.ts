import { jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CheckoutRequest } from './port.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_sessions_idempotency_key').on(t.idempotencyKey)],
);
