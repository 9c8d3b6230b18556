import type { Conversion, TopProduct, VendorAnalytics } from '@tradeshelf/contract';
import { lazy, Suspense } from 'react';
import { Loading } from '../../../components/screen.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { chartRows, formatRate, periodLabel, totalCards } from './format.ts';

const AnalyticsCharts = lazy(() => import('./charts.tsx'));

export function TotalsCards({ totals }: { totals: VendorAnalytics['totals'][number] }) {
  return (
    <ul
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
      aria-label={`Totals in ${totals.currency.toUpperCase()}`}
    >
      {totalCards(totals).map((c) => (
        <li key={c.label} className="rounded-xl border border-ink-700 bg-ink-900 p-4">
          <p className="text-sm text-slate-400">{c.label}</p>
          <p className="mt-1 text-2xl font-bold text-white">{c.value}</p>
          <p className="mt-1 text-xs text-slate-400">{c.note}</p>
        </li>
      ))}
    </ul>
  );
}

const th = 'px-3 py-2 text-left font-semibold text-slate-300';
const td = 'px-3 py-2 text-slate-200';
const num = 'px-3 py-2 text-right tabular-nums text-slate-200';

/** Charts (lazy) with the same numbers as a table for screen readers and keyboard users. */
export function SeriesSection({
  series,
  interval,
}: {
  series: VendorAnalytics['series'][number];
  interval: VendorAnalytics['range']['interval'];
}) {
  const rows = chartRows(series.points, interval);
  const money = (n: number) => formatMoney(n, series.currency);
  return (
    <section className="flex flex-col gap-3" aria-labelledby="analytics-charts-title">
      <h2 id="analytics-charts-title" className="text-lg font-semibold text-white">
        Over time ({series.currency.toUpperCase()})
      </h2>
      <Suspense fallback={<Loading label="Loading the charts…" size="page" rows={4} columns={2} />}>
        <AnalyticsCharts rows={rows} currency={series.currency} />
      </Suspense>
      <details className="rounded-xl border border-ink-700 bg-ink-900 p-3">
        <summary className="cursor-pointer text-sm font-medium text-slate-200">
          Show the numbers as a table
        </summary>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th className={th}>Period</th>
                <th className={th}>Gross</th>
                <th className={th}>Net</th>
                <th className={th}>Sales</th>
                <th className={th}>Refunds</th>
                <th className={th}>Affiliate share</th>
              </tr>
            </thead>
            <tbody>
              {series.points.map((p) => (
                <tr key={p.period} className="border-t border-ink-800">
                  <td className={td}>{periodLabel(p.period, interval, true)}</td>
                  <td className={num}>{money(p.gross)}</td>
                  <td className={num}>{money(p.net)}</td>
                  <td className={num}>{p.sales}</td>
                  <td className={num}>{money(p.refunds)}</td>
                  <td className={num}>{money(p.affiliate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

export function TopProductsTable({
  title,
  rows,
  by,
}: {
  title: string;
  rows: TopProduct[];
  by: 'net' | 'sales';
}) {
  return (
    <section className="rounded-xl border border-ink-700 bg-ink-900 p-4">
      <h2 className="mb-2 text-lg font-semibold text-white">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-400">No sales in this range.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr>
              <th className={th}>Product</th>
              <th className={`${th} text-right`}>{by === 'net' ? 'Net' : 'Sales'}</th>
              <th className={`${th} text-right`}>{by === 'net' ? 'Sales' : 'Net'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.itemId}:${r.currency}`} className="border-t border-ink-800">
                <td className={td}>
                  {r.title}
                  {r.itemType === 'bundle' && (
                    <span className="ml-2 text-xs text-slate-400">bundle</span>
                  )}
                </td>
                <td className={num}>{by === 'net' ? formatMoney(r.net, r.currency) : r.sales}</td>
                <td className={num}>{by === 'net' ? r.sales : formatMoney(r.net, r.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ConversionTable({ rows }: { rows: Conversion[] }) {
  return (
    <section className="rounded-xl border border-ink-700 bg-ink-900 p-4">
      <h2 className="text-lg font-semibold text-white">Conversion</h2>
      <p className="mb-2 text-sm text-slate-400">
        Paid sales divided by views of the product&apos;s page in this range.
      </p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-400">No product page views in this range.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th className={th}>Product</th>
                <th className={`${th} text-right`}>Views</th>
                <th className={`${th} text-right`}>Sales</th>
                <th className={`${th} text-right`}>Conversion</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.productId} className="border-t border-ink-800">
                  <td className={td}>{r.title}</td>
                  <td className={num}>{r.views}</td>
                  <td className={num}>{r.sales}</td>
                  <td className={num}>{formatRate(r.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
