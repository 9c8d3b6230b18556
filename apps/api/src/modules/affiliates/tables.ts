import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { vendorColumn, vendors } from '../catalog/tables.ts';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, money, refColumn, timestamps, ts } from '../../db/columns.ts';

/**
 * A referral id: an affiliate's link for one vendor, with the terms it was made under (a programme's
 * later change does not touch links already made). Checkout resolves `refId` here.
 */
export const referralLinks = pgTable(
  'referral_links',
  {
    refId: text('ref_id').primaryKey(),
    vendorId: vendorColumn(),
    userId: userColumn(),
    /** Commission on each payment, basis points of the total the buyer paid. */
    commissionBps: integer('commission_bps').notNull().default(2000),
    /** How long a visit through the link is remembered (the `referral_id` cookie's lifetime). */
    cookieDays: integer('cookie_days').notNull().default(30),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_links_vendor_user_key').on(t.vendorId, t.userId),
    index('referral_links_user_idx').on(t.userId),
  ],
);

/** A vendor's programme: open to anyone or by invitation, and the terms new referrals get. */
export const affiliateProgrammes = pgTable(
  'affiliate_programmes',
  {
    vendorId: text('vendor_id')
      .primaryKey()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    open: boolean('open').notNull().default(true),
    commissionBps: integer('commission_bps').notNull().default(2000),
    cookieDays: integer('cookie_days').notNull().default(30),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check(
      'affiliate_programmes_terms',
      sql`${t.commissionBps} BETWEEN 0 AND 9000 AND ${t.cookieDays} BETWEEN 1 AND 365`,
    ),
  ],
);

/** A vendor's invitation to an e-mail address; `refId` becomes the affiliate's link on accepting. */
export const affiliateInvites = pgTable(
  'affiliate_invites',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    email: text('email').notNull(),
    refId: text('ref_id').notNull(),
    commissionBps: integer('commission_bps').notNull(),
    cookieDays: integer('cookie_days').notNull(),
    status: text('status', { enum: ['pending', 'accepted'] })
      .notNull()
      .default('pending'),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    acceptedAt: ts('accepted_at'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('affiliate_invites_ref_key').on(t.refId),
    uniqueIndex('affiliate_invites_pending_key')
      .on(t.vendorId, sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending'`),
    index('affiliate_invites_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending'`),
    check('affiliate_invites_status', sql`${t.status} IN ('pending', 'accepted')`),
  ],
);

/** Visits through a referral link: one row per link, day and visitor (a keyed hash, no address). */
export const affiliateClicks = pgTable(
  'affiliate_clicks',
  {
    refId: refColumn('ref_id', () => referralLinks.refId),
    visitor: text('visitor').notNull(),
    day: date('day').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'affiliate_clicks_pk', columns: [t.refId, t.day, t.visitor] })],
);

/** An affiliate's connected account at the provider, where payouts are transferred. */
export const affiliatePayoutAccounts = pgTable(
  'affiliate_payout_accounts',
  {
    userId: userColumn(),
    provider: text('provider').notNull(),
    accountId: text('account_id').notNull(),
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    ...timestamps(),
  },
  (t) => [primaryKey({ name: 'affiliate_payout_accounts_pk', columns: [t.userId, t.provider] })],
);

/**
 * A payout: debited from the balance in the ledger when requested, then transferred. The provider's
 * answer (at once or by webhook) marks it paid, or failed / returned with a ledger entry giving the
 * amount back.
 */
export const affiliatePayouts = pgTable(
  'affiliate_payouts',
  {
    id: idColumn(),
    userId: refColumn('user_id', () => users.id, 'restrict'),
    provider: text('provider').notNull(),
    accountId: text('account_id').notNull(),
    ...money(),
    status: text('status', { enum: ['requested', 'paid', 'failed', 'returned'] })
      .notNull()
      .default('requested'),
    /** The provider's idempotency key for the transfer: derived from the payout id. */
    idempotencyKey: text('idempotency_key').notNull(),
    transferId: text('transfer_id'),
    failureReason: text('failure_reason'),
    /** Transfer attempts whose outcome was unknown (network, provider outage); retried by a job. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('affiliate_payouts_idempotency_key').on(t.idempotencyKey),
    index('affiliate_payouts_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('affiliate_payouts_transfer_idx').on(t.transferId),
    index('affiliate_payouts_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'requested'`),
    check('affiliate_payouts_amount', sql`${t.amount} > 0`),
    check(
      'affiliate_payouts_status',
      sql`${t.status} IN ('requested', 'paid', 'failed', 'returned')`,
    ),
  ],
);

/** Local and sandbox only: how many days the hold clock runs ahead (the test clock). */
export const affiliateClock = pgTable(
  'affiliate_clock',
  {
    id: integer('id').primaryKey().default(1),
    offsetDays: integer('offset_days').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('affiliate_clock_one_row', sql`${t.id} = 1`)],
);
