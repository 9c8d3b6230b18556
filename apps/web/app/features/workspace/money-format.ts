import { formatMoney as contractMoney } from '@tradeshelf/contract/client';
import type { Money, VendorSale } from '@tradeshelf/contract';
import { formatMoney } from '../../lib/format.ts';

export const money = (m: Money) => formatMoney(m.amount, m.currency);

/** Always two decimals in tables, so amounts line up. */
export const exactMoney = (m: Money): string => contractMoney(m.amount, m.currency, 'exact');

/**
 * An amount typed in major units ("12", "12.5", "12.50", "$1,200.00") as minor units; NaN when it is
 * not a number to the cent (so the contract's rule names the problem).
 */
export function parseAmount(text: string): number {
  const clean = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) return Number.NaN;
  const [whole, cents = ''] = clean.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

/** Minor units as the form shows them: 1250 → "12.50". */
export const amountText = (amount: number) => (amount / 100).toFixed(2);

export type Tone = 'good' | 'warn' | 'bad' | 'muted';

/** What became of a sale, in a word or two, with its badge colour. */
export function saleStatus(s: VendorSale): { label: string; tone: Tone } {
  if (s.disputedAt) return { label: 'Disputed', tone: 'bad' };
  if (s.status === 'refunded') return { label: 'Refunded', tone: 'muted' };
  if (s.revoked) return { label: 'Access revoked', tone: 'bad' };
  if (s.pendingRefund.amount > 0) return { label: 'Refund pending', tone: 'warn' };
  if (s.refunded.amount > 0) return { label: 'Partly refunded', tone: 'warn' };
  return { label: 'Paid', tone: 'good' };
}

const toneClass: Record<Tone, string> = {
  good: 'border-brand-500/40 bg-brand-500/10 text-brand-200',
  warn: 'border-amber-500/40 bg-amber-500/10 text-amber-200',
  bad: 'border-rose-500/40 bg-rose-500/10 text-rose-200',
  muted: 'border-ink-600 bg-ink-800 text-slate-300',
};

export const badgeClass = (tone: Tone) =>
  `inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold ${toneClass[tone]}`;
