import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { products } from '../catalog/tables.ts';
import { purchases } from '../orders/tables.ts';
import { users } from '../users/tables.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * What a purchase granted: product access, course enrolment, a licence to issue, a Discord role.
 * The access module keeps them from orders' events (ADR 028); delivery jobs perform the outside part.
 */
export const entitlements = pgTable(
  'entitlements',
  {
    id: text('id').primaryKey(),
    purchaseId: text('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    kind: text('kind', {
      enum: ['access', 'course_enrolment', 'licence', 'discord_role'],
    }).notNull(),
    status: text('status', { enum: ['active', 'ended'] })
      .notNull()
      .default('active'),
    endsAt: ts('ends_at'),
    endedReason: text('ended_reason'),
    performedAt: ts('performed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('entitlements_purchase_product_kind_key').on(t.purchaseId, t.productId, t.kind),
    index('entitlements_user_idx').on(t.userId),
  ],
);
