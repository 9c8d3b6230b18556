import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    username: text('username'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`ARRAY['buyer']::text[]`),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, mode: 'date' }),
    avatarKey: text('avatar_key'),
    /** The last change of a chosen username (choosing the first one leaves it null), ADR 058. */
    usernameChangedAt: timestamp('username_changed_at', { withTimezone: true, mode: 'date' }),
    /** Set when the account was deleted (ADR 060): the row stays, de-identified, for its orders. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    /** What receipts print for the buyer (ADR 060); empty prints the e-mail. */
    billingName: text('billing_name').notNull().default(''),
    billingAddress: text('billing_address').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
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
  heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date' }).notNull(),
});

/** A row that belongs to a person and goes when their account row goes. */
export function userColumn() {
  return text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
}
