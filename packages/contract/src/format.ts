/**
 * The one money formatter and the public paths (issue 28): the API (messages, e-mails, sitemap,
 * links) and the web app build them here. No zod: the browser imports this (`client.ts`).
 */

/**
 * Minor units in words. `exact`: "$50.00" (messages, tables: amounts line up); `short`: "$50", or
 * "$12.50" when there are cents (pages); `code`: "50.00 USD" (plain-text e-mail).
 */
/** A share in basis points as people write it: 2000 → "20%", 1250 → "12.5%". */
export const formatBps = (bps: number) => `${Number((bps / 100).toFixed(2))}%`;

export type MoneyStyle = 'exact' | 'short' | 'code';

// Building an Intl formatter costs far more than using one (it was the top item in the SSR profile).
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * The plans' currencies as en-US writes them, without Intl: a browser's first Intl formatter loads
 * ICU's data (25–50 ms of a page's main thread in Chromium), and a price is on nearly every page.
 * format.test.ts holds this to Intl's own output.
 */
const symbols: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' };

/** A whole number with en-US thousands separators, as `toLocaleString('en-US')` writes it, without Intl. */
export function groupThousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return `${n < 0 ? '-' : ''}${String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

function plainMoney(amount: number, symbol: string, fraction: number): string {
  const minor = Math.abs(amount);
  const whole = groupThousands(Math.floor(minor / 100));
  const cents = fraction ? `.${String(minor % 100).padStart(2, '0')}` : '';
  return `${amount < 0 ? '-' : ''}${symbol}${whole}${cents}`;
}

export function formatMoney(amount: number, currency: string, style: MoneyStyle = 'exact'): string {
  const code = currency.toUpperCase();
  if (style === 'code') return `${(amount / 100).toFixed(2)} ${code}`;
  const fraction = style === 'short' && amount % 100 === 0 ? 0 : 2;
  const symbol = symbols[code];
  if (symbol && Number.isSafeInteger(amount)) return plainMoney(amount, symbol, fraction);
  const key = `${code}:${fraction}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: fraction,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount / 100);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "Nov 22, 2026" in UTC, as Intl's medium date writes it, without Intl (see above): public pages
 * show it as the server rendered it, so hydration matches wherever the reader is; e-mails too.
 */
export function utcDayLabel(at: string | Date): string {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]!.slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "November 2026" in UTC (see `utcDayLabel`). */
export function utcMonthLabel(at: string | Date): string {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const part = encodeURIComponent;

/** A product's page: `/p/<id>/<slug>`. */
export const productPath = (p: { id: string; slug: string }) => `/p/${part(p.id)}/${part(p.slug)}`;
/** A bundle's page: `/b/<id>/<slug>`. */
export const bundlePath = (b: { id: string; slug: string }) => `/b/${part(b.id)}/${part(b.slug)}`;
/** A vendor's storefront: `/v/<vendorUrl>`. */
export const storefrontPath = (vendorUrl: string) => `/v/${part(vendorUrl)}`;
/** A course's player: `/courses/<productId>`. */
export const coursePath = (productId: string) => `/courses/${part(productId)}`;
