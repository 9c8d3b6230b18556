import { formatMoney as contractMoney, groupThousands } from '@tradeshelf/contract/client';

// Public pages' dates (UTC, no Intl) live beside the money formatter: e-mails write them too.
export { utcDayLabel, utcMonthLabel } from '@tradeshelf/contract/client';
import type { Price } from '@tradeshelf/contract';

const intervalLabel: Record<string, string> = {
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

/** "$29", or "$12.50" with cents: the contract's one formatter, as pages show money. */
export const formatMoney = (amount: number, currency: string): string =>
  contractMoney(amount, currency, 'short');

/** "$29 / month", "$399 one-time", with the trial when there is one. */
export function formatPrice(price: Price): string {
  const money = formatMoney(price.amount, price.currency);
  if (price.scheme === 'one_time') return `${money} one-time`;
  return `${money} / ${intervalLabel[price.interval ?? 'month']}`;
}

export function trialLabel(price: Price): string | null {
  return price.trialDays ? `${price.trialDays}-day free trial` : null;
}

/**
 * An en-US date formatter built on first use. A browser's first Intl formatter loads ICU's data
 * (30–50 ms of main thread in Chromium): made at import, every page paid it while its modules
 * evaluated, dates shown or not.
 */
export function lazyDateFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => (format ??= new Intl.DateTimeFormat('en-US', options)).format(date);
}

/** "Nov 22, 2026" in the reader's time zone. */
const dateFormat = lazyDateFormat({ dateStyle: 'medium' });
const dateTimeFormat = lazyDateFormat({ dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string): string {
  return dateFormat(new Date(iso));
}

/** "Nov 22, 2026, 12:05 PM" in the reader's time zone. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat(new Date(iso));
}

/** "1 file", "3 files": a count with its noun, singular for one (one helper for every count shown). */
export function countLabel(n: number, one: string, many = `${one}s`): string {
  return `${groupThousands(n)} ${n === 1 ? one : many}`;
}

/** A media length as players show it: "0:06", "12:30", "1:02:03". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(mm).padStart(2, '0')}:${ss}`;
  return `${mm}:${ss}`;
}
