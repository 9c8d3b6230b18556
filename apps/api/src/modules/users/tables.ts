import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, ts } from '../../db/columns.ts';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    username: text('username'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`ARRAY['buyer']::text[]`),
    emailVerifiedAt: ts('email_verified_at'),
    avatarKey: text('avatar_key'),
    /** The last change of a chosen username (choosing the first one leaves it null), ADR 058. */
    usernameChangedAt: ts('username_changed_at'),
    /** Set when the account was deleted (ADR 060): the row stays, de-identified, for its orders. */
    deletedAt: ts('deleted_at'),
    /** What receipts print for the buyer (ADR 060); empty prints the e-mail. */
    billingName: text('billing_name').notNull().default(''),
    billingAddress: text('billing_address').notNull().default(''),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_key')
      .on(sql`lower(${t.username})`)
      .where(sql`${t.username} is not null`),
  ],
);

/**
 * Usernames given up in the last 30 days (ADR 058), lower-cased: nobody but their last owner may
 * take them until `heldUntil`.
 */
export const usernameHolds = pgTable('username_holds', {
  name: text('name').primaryKey(),
  userId: userColumn(),
  heldUntil: ts('held_until').notNull(),
});

/** A row that belongs to a person and goes when their account row goes. */
export function userColumn() {
  return refColumn('user_id', () => users.id);
}
