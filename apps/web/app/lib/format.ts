import type { Price } from '@tradeshelf/contract';

const intervalLabel: Record<string, string> = {
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: amount % 100 === 0 ? 0 : 2,
  }).format(amount / 100);
}

/** "$29 / month", "$399 one-time", with the trial when there is one. */
export function formatPrice(price: Price): string {
  const money = formatMoney(price.amount, price.currency);
  if (price.scheme === 'one_time') return `${money} one-time`;
  return `${money} / ${intervalLabel[price.interval ?? 'month']}`;
}

export function trialLabel(price: Price): string | null {
  return price.trialDays ? `${price.trialDays}-day free trial` : null;
}

/** "Nov 22, 2026" in the reader's time zone. */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(iso));
}

/** "Nov 22, 2026, 12:05 PM" in the reader's time zone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}
