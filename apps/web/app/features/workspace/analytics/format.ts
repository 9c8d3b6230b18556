// Pure helpers of the analytics screen: ranges, labels, chart rows and ratios (unit-tested).
import { shiftAnalyticsDate, type AnalyticsInterval } from '@tradeshelf/contract/client';
import type { AnalyticsPoint, AnalyticsTotals } from '@tradeshelf/contract';
import { formatMoney, lazyDateFormat } from '../../../lib/format.ts';

export const RANGE_PRESETS = [
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
  { id: '365', label: 'Last 365 days', days: 365 },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['id'] | 'custom';

/** Today as the server counts days (UTC), `YYYY-MM-DD`. */
export const utcToday = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** The days a preset covers, ending today (both counted). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: string) {
  const days = RANGE_PRESETS.find((p) => p.id === preset)!.days;
  return { from: shiftAnalyticsDate(today, -(days - 1)), to: today };
}

/** A sensible interval for a range: days up to three months, then weeks, then months. */
export function defaultInterval(days: number): AnalyticsInterval {
  if (days <= 92) return 'day';
  if (days <= 400) return 'week';
  return 'month';
}

const dayFormat = lazyDateFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthFormat = lazyDateFormat({ month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "Nov 3" for a day or the week starting then ("Week of Nov 3" long), "Nov 2026" for a month. */
export function periodLabel(period: string, interval: AnalyticsInterval, long = false): string {
  const at = new Date(`${period}T00:00:00Z`);
  if (interval === 'month') return monthFormat(at);
  const day = dayFormat(at);
  return interval === 'week' && long ? `Week of ${day}` : day;
}

/** One chart row per bucket, money in major units (recharts plots numbers, not minor units). */
export interface ChartRow {
  period: string;
  label: string;
  gross: number;
  net: number;
  refunds: number;
  affiliate: number;
  sales: number;
  refundCount: number;
}

export function chartRows(points: AnalyticsPoint[], interval: AnalyticsInterval): ChartRow[] {
  return points.map((p) => ({
    period: p.period,
    label: periodLabel(p.period, interval),
    gross: p.gross / 100,
    net: p.net / 100,
    refunds: p.refunds / 100,
    affiliate: p.affiliate / 100,
    sales: p.sales,
    refundCount: p.refundCount,
  }));
}

/** A ratio as a percentage with at most one decimal ("12.5%"); "—" when there is none. */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return '—';
  return `${Number((rate * 100).toFixed(1))}%`;
}

/** Affiliate share of gross, as a rate (null without gross). */
export const affiliateShare = (t: Pick<AnalyticsTotals, 'affiliate' | 'gross'>) =>
  t.gross > 0 ? t.affiliate / t.gross : null;

/** The totals cards: label, value and an optional line under it. */
export function totalCards(t: AnalyticsTotals) {
  const money = (n: number) => formatMoney(n, t.currency);
  return [
    {
      label: 'Gross revenue',
      value: money(t.gross),
      note: `${t.sales} ${t.sales === 1 ? 'sale' : 'sales'}`,
    },
    { label: 'Net revenue', value: money(t.net), note: `after fees ${money(t.fee)}` },
    {
      label: 'Refunds',
      value: money(t.refunds),
      note: `${t.refundCount} ${t.refundCount === 1 ? 'refund' : 'refunds'}`,
    },
    {
      label: 'Affiliate share',
      value: money(t.affiliate),
      note: `${formatRate(affiliateShare(t))} of gross`,
    },
  ];
}

/** Whether an answer holds no money and no views at all (the empty state). */
export const isEmpty = (a: { totals: unknown[]; conversion: unknown[] }) =>
  a.totals.length === 0 && a.conversion.length === 0;

/** Saves a Blob as a file through a temporary link (the answer was fetched with the token). */
export function saveBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The file name the server would give (Content-Disposition is not readable cross-origin). */
export const csvFilename = (from: string, to: string, productId?: string) =>
  `sales-${from}-to-${to}${productId ? `-${productId.replace(/[^\w-]/g, '')}` : ''}.csv`;
