import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { userColumn } from '../users/tables.ts';
import { idColumn, refColumn, timestamps, ts } from '../../db/columns.ts';

/** A member's saved search: the query and filters of `/search`, and how far alerts have looked. */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: idColumn(),
    userId: userColumn(),
    name: text('name').notNull(),
    q: text('q').notNull(),
    category: text('category'),
    kind: text('kind'),
    platform: text('platform'),
    minPrice: integer('min_price'),
    maxPrice: integer('max_price'),
    alerts: boolean('alerts').notNull().default(true),
    /** Products published up to here have been matched against it (no alert for older ones). */
    checkedUntil: ts('checked_until').notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.createdAt, t.id),
    index('saved_searches_alerts_idx')
      .on(t.checkedUntil)
      .where(sql`${t.alerts}`),
  ],
);

/** A new product a saved search matched: one row each, so it is mailed once (`mailed_at`). */
export const savedSearchHits = pgTable(
  'saved_search_hits',
  {
    savedSearchId: refColumn('saved_search_id', () => savedSearches.id),
    /** The catalogue's product id (read through the catalog service, no foreign key across slices). */
    productId: text('product_id').notNull(),
    userId: userColumn(),
    mailedAt: ts('mailed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.savedSearchId, t.productId], name: 'saved_search_hits_pkey' }),
    index('saved_search_hits_unmailed_idx')
      .on(t.userId)
      .where(sql`${t.mailedAt} is null`),
  ],
);

/** Alert e-mails sent to a member per UTC day: the plan's daily cap counts these. */
export const alertMailDays = pgTable(
  'alert_mail_days',
  {
    userId: userColumn(),
    day: date('day', { mode: 'string' }).notNull(),
    mails: integer('mails').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day], name: 'alert_mail_days_pkey' })],
);
