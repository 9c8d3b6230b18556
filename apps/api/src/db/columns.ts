import { integer, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** A `timestamptz` column read as a `Date`: every table's times are instants, never wall-clock times. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A required reference to another row: removing that row removes this one, unless `restrict`. */
export const refColumn = (
  name: string,
  target: () => AnyPgColumn,
  onDelete: 'cascade' | 'restrict' = 'cascade',
) => text(name).notNull().references(target, { onDelete });

/** A row's own id: text the app makes (prefixed random ids), never a sequence. */
export const idColumn = () => text('id').primaryKey();

/** When a row was made and last changed; both set by the database on insert. */
export const timestamps = () => ({
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** An amount of money in minor units and its currency (lower-case ISO code). */
export const money = () => ({
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
});
