import {
  ANALYTICS_INTERVALS,
  analyticsRangeDays,
  validateAnalyticsRange,
  type AnalyticsInterval,
} from '@tradeshelf/contract/client';
import type { VendorAnalytics } from '@tradeshelf/contract';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Field } from '../../../components/ui.tsx';
import { Screen } from '../../../components/screen.tsx';
import { useAction, useRead } from '../request.ts';
import { downloadVendorAnalyticsCsv, fetchVendorAnalytics, type AnalyticsFilters } from './api.ts';
import { ConversionTable, SeriesSection, TopProductsTable, TotalsCards } from './components.tsx';
import {
  csvFilename,
  defaultInterval,
  isEmpty,
  presetRange,
  RANGE_PRESETS,
  saveBlob,
  utcToday,
  type RangePreset,
} from './format.ts';
import { SelectField } from '../../../components/select-field.tsx';

const intervalLabels: Record<AnalyticsInterval, string> = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
};

export function AnalyticsScreen() {
  const today = utcToday();
  const [preset, setPreset] = useState<RangePreset>('30');
  const [custom, setCustom] = useState(() => presetRange('30', today));
  const [interval, setInterval] = useState<AnalyticsInterval>('day');
  const [productId, setProductId] = useState('');
  const [currency, setCurrency] = useState<string | null>(null);

  const range = preset === 'custom' ? custom : presetRange(preset, today);
  const fieldErrors = preset === 'custom' ? validateAnalyticsRange(range.from, range.to) : {};
  const valid = !fieldErrors.from && !fieldErrors.to;
  // An invalid custom range keeps showing the last good answer until it is fixed.
  const [query, setQuery] = useState<AnalyticsFilters>({
    ...presetRange('30', today),
    interval: 'day',
  });
  const next: AnalyticsFilters = {
    from: range.from,
    to: range.to,
    interval,
    ...(productId ? { productId } : {}),
  };
  if (valid && JSON.stringify(next) !== JSON.stringify(query)) setQuery(next);

  const read = useRead<AnalyticsFilters, VendorAnalytics>(fetchVendorAnalytics, query);
  const download = useAction<AnalyticsFilters, string>(downloadVendorAnalyticsCsv);
  const data = read.data;
  const shown = useMemo(() => {
    if (!data) return null;
    const pick = data.totals.find((t) => t.currency === currency) ?? data.totals[0] ?? null;
    return {
      totals: pick,
      series: pick ? (data.series.find((s) => s.currency === pick.currency) ?? null) : null,
    };
  }, [data, currency]);

  const choosePreset = (value: RangePreset) => {
    setPreset(value);
    const r = value === 'custom' ? custom : presetRange(value, today);
    if (value !== 'custom') setCustom(r);
    setInterval(defaultInterval(analyticsRangeDays(r.from, r.to)));
  };

  const onDownload = async () => {
    const csv = await download.run(query);
    if (csv !== null)
      saveBlob(
        new Blob([csv], { type: 'text/csv;charset=utf-8' }),
        csvFilename(query.from, query.to, query.productId),
      );
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold text-white">Analytics</h1>
        <Button
          variant="ghost"
          onClick={() => void onDownload()}
          loading={download.busy}
          disabled={!valid}
        >
          Download CSV
        </Button>
      </div>
      {download.error && <Alert>{download.error.error}</Alert>}

      <form
        className="grid grid-cols-1 gap-4 rounded-xl border border-ink-700 bg-ink-900 p-4 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => e.preventDefault()}
        aria-label="Filters"
      >
        <SelectField
          label="Range"
          value={preset}
          options={[
            ...RANGE_PRESETS.map((p) => [p.id, p.label] as const),
            ['custom', 'Custom range'] as const,
          ]}
          onChange={(p) => p && choosePreset(p)}
        />
        <SelectField
          label="Interval"
          value={interval}
          options={ANALYTICS_INTERVALS.map((i) => [i, intervalLabels[i]] as const)}
          onChange={(i) => i && setInterval(i)}
        />
        <SelectField
          label="Product"
          value={productId}
          options={(data?.products ?? []).map(
            (p) => [p.id, p.type === 'bundle' ? `${p.title} (bundle)` : p.title] as const,
          )}
          onChange={setProductId}
          empty="All products"
        />
        {data && data.totals.length > 1 && (
          <SelectField
            label="Currency"
            value={shown?.totals?.currency ?? ''}
            options={data.totals.map((t) => [t.currency, t.currency.toUpperCase()] as const)}
            onChange={setCurrency}
          />
        )}
        {preset === 'custom' && (
          <>
            <Field
              label="From"
              type="date"
              value={custom.from}
              max={today}
              onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
              error={fieldErrors.from}
            />
            <Field
              label="To"
              type="date"
              value={custom.to}
              max={today}
              onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
              error={fieldErrors.to}
            />
          </>
        )}
      </form>

      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading analytics…"
        size="card"
        rows={4}
        columns={4}
        isEmpty={isEmpty}
        empty={
          <div className="rounded-xl border border-ink-700 bg-ink-900 p-8 text-center">
            <h2 className="text-lg font-semibold text-white">No sales in this range yet</h2>
            <p className="mt-2 text-sm text-slate-400">
              Sales, refunds and product page views show here as they happen. Try a longer range, or
              publish a product to start selling.
            </p>
            <Link
              to="/vendor/products"
              className="mt-4 inline-block font-semibold text-brand-400 hover:text-brand-300"
            >
              Go to your products
            </Link>
          </div>
        }
      >
        {(data) => (
          <div
            className={`flex flex-col gap-6 ${read.status === 'loading' ? 'opacity-60' : ''}`}
            aria-busy={read.status === 'loading' || undefined}
          >
            {shown?.totals && <TotalsCards totals={shown.totals} />}
            {shown?.series && (
              <SeriesSection series={shown.series} interval={data.range.interval} />
            )}
            <div className="grid gap-4 lg:grid-cols-2">
              <TopProductsTable
                title="Top products by net revenue"
                rows={data.topProducts.byNet}
                by="net"
              />
              <TopProductsTable
                title="Top products by sales"
                rows={data.topProducts.bySales}
                by="sales"
              />
            </div>
            <ConversionTable rows={data.conversion} />
          </div>
        )}
      </Screen>
    </div>
  );
}
