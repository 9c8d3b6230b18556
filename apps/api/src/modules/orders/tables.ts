import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from '../users/tables.ts';

/**
 * What a buyer owns: one row per product or bundle granted, by purchase or otherwise. Orders write it;
 * the catalogue joins it to compute `purchased` in the same query as a listing.
 */
export const ownerships = pgTable(
  'ownerships',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id'),
    bundleId: text('bundle_id'),
    source: text('source').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('ownerships_user_product_key')
      .on(t.userId, t.productId)
      .where(sql`${t.productId} is not null and ${t.revokedAt} is null`),
    uniqueIndex('ownerships_user_bundle_key')
      .on(t.userId, t.bundleId)
      .where(sql`${t.bundleId} is not null and ${t.revokedAt} is null`),
    index('ownerships_product_idx').on(t.productId),
  ],
);
