import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { entitlements } from '../access/tables.ts';
import { productColumn, vendorColumn } from '../catalog/tables.ts';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, refColumn, timestamps, ts } from '../../db/columns.ts';

/** A vendor's invite-only script on TradingView (ADR 034). */
export const tradingviewScripts = pgTable(
  'tradingview_scripts',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tradingview_scripts_vendor_url_key').on(t.vendorId, t.url)],
);

/** The scripts a product delivers. */
export const tradingviewProductScripts = pgTable(
  'tradingview_product_scripts',
  {
    productId: productColumn(),
    scriptId: refColumn('script_id', () => tradingviewScripts.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.scriptId] }),
    index('tradingview_product_scripts_script_idx').on(t.scriptId),
  ],
);

/** The TradingView username a buyer gave (one per user). */
export const tradingviewUsernames = pgTable('tradingview_usernames', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  username: text('username').notNull(),
  changedAt: ts('changed_at').notNull().defaultNow(),
});

/** Every change of a buyer's username, for support. */
export const tradingviewUsernameChanges = pgTable(
  'tradingview_username_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: userColumn(),
    oldUsername: text('old_username'),
    newUsername: text('new_username').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('tradingview_username_changes_user_idx').on(t.userId, t.at)],
);

/**
 * A task in the vendor's access queue: add or remove one username on a product's scripts. Which
 * scripts are the grants pointing at it (`grant_task_id` / `revoke_task_id`).
 */
export const tradingviewTasks = pgTable(
  'tradingview_tasks',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    buyerId: refColumn('buyer_id', () => users.id),
    entitlementId: refColumn('entitlement_id', () => entitlements.id),
    purchaseId: text('purchase_id').notNull(),
    productId: productColumn(),
    kind: text('kind', { enum: ['grant', 'revoke'] }).notNull(),
    username: text('username').notNull(),
    expiresAt: ts('expires_at'),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'done', 'cancelled'] })
      .notNull()
      .default('pending'),
    /** Revocations: overdue after this; the vendor is reminded once. */
    dueAt: ts('due_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
    completedBy: text('completed_by'),
    note: text('note'),
    cancelledAt: ts('cancelled_at'),
    reminderSentAt: ts('reminder_sent_at'),
  },
  (t) => [
    index('tradingview_tasks_vendor_idx').on(t.vendorId, t.status, t.createdAt, t.id),
    index('tradingview_tasks_overdue_idx')
      .on(t.dueAt)
      .where(sql`status = 'pending' and kind = 'revoke' and reminder_sent_at is null`),
  ],
);

/**
 * One script given (or to be given) to one buyer's username, for the entitlement that wants it
 * (the one lasting longest when several do): `granting` while its grant
 * task is pending, `active` once done, `revoking` while its revocation is pending, then `revoked`;
 * `cancelled` when it was no longer wanted before the grant was done.
 */
export const tradingviewGrants = pgTable(
  'tradingview_grants',
  {
    id: idColumn(),
    entitlementId: refColumn('entitlement_id', () => entitlements.id),
    userId: userColumn(),
    scriptId: refColumn('script_id', () => tradingviewScripts.id),
    username: text('username').notNull(),
    state: text('state', {
      enum: ['granting', 'active', 'revoking', 'revoked', 'cancelled'],
    }).notNull(),
    grantTaskId: refColumn('grant_task_id', () => tradingviewTasks.id),
    revokeTaskId: text('revoke_task_id').references(() => tradingviewTasks.id, {
      onDelete: 'set null',
    }),
    ...timestamps(),
  },
  (t) => [
    index('tradingview_grants_user_idx').on(t.userId),
    index('tradingview_grants_grant_task_idx').on(t.grantTaskId),
    index('tradingview_grants_revoke_task_idx').on(t.revokeTaskId),
    // One live grant of a script per buyer and name: a repeated sync cannot add a second.
    uniqueIndex('tradingview_grants_live_key')
      .on(t.userId, t.scriptId, sql`lower(${t.username})`)
      .where(sql`state in ('granting', 'active', 'revoking')`),
  ],
);
