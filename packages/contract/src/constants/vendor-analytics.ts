/**
 * Vendor analytics (issue 19, ADR 043): ranges, intervals and messages. Plain values and pure
 * functions, no zod, so the web app's range picker runs the same rule as the server.
 */
import { TIMESTAMP_YEAR_MAX, TIMESTAMP_YEAR_MIN } from '../rules/timestamp.ts';
import { groupThousands } from '../format.ts';

export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

/** The longest range one request may ask for, in days (two years, a leap day included). */
export const ANALYTICS_RANGE_MAX_DAYS = 731;
/** The range a request without `from` and `to` gets, in days, ending today (UTC). */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** Rows one CSV export may hold; a longer export asks for a shorter range. */
export const ANALYTICS_EXPORT_MAX_ROWS = 100_000;
/** Products listed in each "top products" table. */
export const ANALYTICS_TOP_PRODUCTS = 10;

export const vendorAnalyticsMessages = {
  date: 'Enter a date as YYYY-MM-DD, for example 2026-01-31.',
  order: 'The end date must be on or after the start date.',
  tooLong: 'Pick a range of at most two years.',
  interval: 'Pick day, week or month.',
  product: 'Pick one of your products.',
  vendorsOnly: 'Set up your storefront first: analytics are for vendors.',
  productNotFound: 'That product or bundle is not one of yours.',
  exportTooLarge: `That range holds more than ${groupThousands(ANALYTICS_EXPORT_MAX_ROWS)} rows. Pick a shorter range or one product.`,
} as const;

const DAY_MS = 86_400_000;

/**
 * A calendar date as `YYYY-MM-DD` that exists (no 2026-02-30) in the years a timestamp may have
 * (ADR 051: PostgreSQL has no year 0000); its UTC midnight in ms, else null.
 */
export function parseAnalyticsDate(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const year = Number(value.slice(0, 4));
  if (year < TIMESTAMP_YEAR_MIN || year > TIMESTAMP_YEAR_MAX) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
  return ms;
}

/** Days from `from` to `to`, both counted. */
export function analyticsRangeDays(from: string, to: string): number {
  return Math.round((parseAnalyticsDate(to)! - parseAnalyticsDate(from)!) / DAY_MS) + 1;
}

/**
 * What is wrong with a range, by field (`from`, `to`); empty when it fits. Either end may be left
 * out (the server fills in the default range around it).
 */
export function validateAnalyticsRange(
  from: string | undefined,
  to: string | undefined,
): Partial<Record<'from' | 'to', string>> {
  const m = vendorAnalyticsMessages;
  const out: Partial<Record<'from' | 'to', string>> = {};
  if (from !== undefined && parseAnalyticsDate(from) === null) out.from = m.date;
  if (to !== undefined && parseAnalyticsDate(to) === null) out.to = m.date;
  if (out.from || out.to || from === undefined || to === undefined) return out;
  const days = analyticsRangeDays(from, to);
  if (days < 1) out.to = m.order;
  else if (days > ANALYTICS_RANGE_MAX_DAYS) out.from = m.tooLong;
  return out;
}

/** A date `days` after (or before, when negative) `date`, as `YYYY-MM-DD`. */
export function shiftAnalyticsDate(date: string, days: number): string {
  return new Date(parseAnalyticsDate(date)! + days * DAY_MS).toISOString().slice(0, 10);
}
