import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { vendors } from '../catalog/tables.ts';
import { users } from '../users/tables.ts';

/**
 * A referral id: an affiliate's link for one vendor. Checkout resolves `refId` here; the affiliates
 * issue adds invitations, generation and payouts on top.
 */
export const referralLinks = pgTable(
  'referral_links',
  {
    refId: text('ref_id').primaryKey(),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Commission on each payment, basis points of the total the buyer paid. */
    commissionBps: integer('commission_bps').notNull().default(2000),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('referral_links_vendor_user_key').on(t.vendorId, t.userId)],
);
