import { validateAnalyticsRange, vendorAnalyticsMessages as m } from '@tradeshelf/contract/client';
import type { AnalyticsPoint } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import {
  affiliateShare,
  chartRows,
  csvFilename,
  defaultInterval,
  formatRate,
  isEmpty,
  periodLabel,
  presetRange,
  totalCards,
  utcToday,
} from './format.ts';
import { usdFigures } from './test-fixtures.ts';

const point = (period: string, over: Partial<AnalyticsPoint> = {}): AnalyticsPoint => ({
  period,
  gross: 0,
  refunds: 0,
  fee: 0,
  affiliate: 0,
  net: 0,
  sales: 0,
  refundCount: 0,
  ...over,
});

describe('ranges', () => {
  it('presets end today (UTC) and count both ends', () => {
    expect(utcToday(new Date('2026-03-01T23:30:00-05:00'))).toBe('2026-03-02');
    expect(presetRange('7', '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(presetRange('30', '2026-03-02')).toEqual({ from: '2026-02-01', to: '2026-03-02' });
    expect(presetRange('365', '2026-12-31')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('picks an interval that keeps charts readable', () => {
    expect(defaultInterval(7)).toBe('day');
    expect(defaultInterval(90)).toBe('day');
    expect(defaultInterval(365)).toBe('week');
    expect(defaultInterval(731)).toBe('month');
  });

  it('validates a custom range with the server’s messages', () => {
    expect(validateAnalyticsRange('2026-01-01', '2026-01-31')).toEqual({});
    expect(validateAnalyticsRange('2026-02-30', '2026-03-01')).toEqual({ from: m.date });
    expect(validateAnalyticsRange('2026-03-02', '2026-03-01')).toEqual({ to: m.order });
    expect(validateAnalyticsRange('2024-01-01', '2026-01-02')).toEqual({ from: m.tooLong });
    expect(validateAnalyticsRange('2024-01-02', '2026-01-01')).toEqual({});
    expect(validateAnalyticsRange('', '2026-01-01')).toEqual({ from: m.date });
  });
});

describe('labels and series', () => {
  it('labels buckets by day, week and month in UTC', () => {
    expect(periodLabel('2026-11-03', 'day')).toBe('Nov 3');
    expect(periodLabel('2026-11-02', 'week', true)).toBe('Week of Nov 2');
    expect(periodLabel('2026-11-01', 'month')).toBe('Nov 2026');
  });

  it('turns points into chart rows in major units, counts untouched', () => {
    const rows = chartRows(
      [
        point('2026-11-01', {
          gross: 12_345,
          net: 9_900,
          refunds: 500,
          affiliate: 1_999,
          sales: 3,
        }),
        point('2026-11-02'),
      ],
      'day',
    );
    expect(rows).toEqual([
      {
        period: '2026-11-01',
        label: 'Nov 1',
        gross: 123.45,
        net: 99,
        refunds: 5,
        affiliate: 19.99,
        sales: 3,
        refundCount: 0,
      },
      {
        period: '2026-11-02',
        label: 'Nov 2',
        gross: 0,
        net: 0,
        refunds: 0,
        affiliate: 0,
        sales: 0,
        refundCount: 0,
      },
    ]);
  });
});

describe('figures', () => {
  const totals = usdFigures;

  it('formats rates, with a dash when there is nothing to divide by', () => {
    expect(formatRate(0.75)).toBe('75%');
    expect(formatRate(1 / 3)).toBe('33.3%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(null)).toBe('—');
    expect(affiliateShare(totals)).toBeCloseTo(2_000 / 34_000);
    expect(affiliateShare({ gross: 0, affiliate: 0 })).toBeNull();
  });

  it('builds the totals cards in the row’s currency', () => {
    expect(totalCards(totals)).toEqual([
      { label: 'Gross revenue', value: '$340', note: '4 sales' },
      { label: 'Net revenue', value: '$208', note: 'after fees $12' },
      { label: 'Refunds', value: '$100', note: '1 refund' },
      { label: 'Affiliate share', value: '$20', note: '5.9% of gross' },
    ]);
    expect(totalCards({ ...totals, currency: 'eur', gross: 1_050, sales: 1 })[0]).toEqual({
      label: 'Gross revenue',
      value: '€10.50',
      note: '1 sale',
    });
  });

  it('knows an empty answer and names the file as the server does', () => {
    expect(isEmpty({ totals: [], conversion: [] })).toBe(true);
    expect(isEmpty({ totals: [totals], conversion: [] })).toBe(false);
    expect(csvFilename('2026-01-01', '2026-01-31')).toBe('sales-2026-01-01-to-2026-01-31.csv');
    expect(csvFilename('2026-01-01', '2026-01-31', 'prd_a"b')).toBe(
      'sales-2026-01-01-to-2026-01-31-prd_ab.csv',
    );
  });
});
