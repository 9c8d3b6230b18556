// The analytics charts: recharts, as the affiliate dashboard draws its earnings, in a chunk of their
// own that only this screen loads (ADR 025). A table beside them carries the same numbers. Money is
// drawn as bars from the zero line: a smoothed curve between buckets dipped below $0 (issue 27).
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMoney } from '../../../lib/format.ts';
import type { ChartRow } from './format.ts';

const axis = { tick: { fill: '#cbd5e1', fontSize: 12 }, stroke: '#2b3a5c' };
const tooltip = {
  cursor: { fill: '#121a2e' },
  contentStyle: { background: '#0b1020', border: '1px solid #2b3a5c', color: '#f1f5f9' },
  labelStyle: { color: '#f1f5f9' },
};

function Panel({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <figure className="rounded-xl border border-ink-700 bg-ink-900 p-4">
      <figcaption className="mb-2 text-sm font-semibold text-slate-200">{title}</figcaption>
      <div aria-hidden="true" className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const margin = { top: 8, right: 8, bottom: 0, left: 0 };

/**
 * Gross and net per bucket, side by side from the zero line. `size` draws at a fixed size (the
 * responsive panel measures its box, which tests have not).
 */
export function RevenueBars({
  rows,
  currency,
  size,
}: {
  rows: ChartRow[];
  currency: string;
  size?: { width: number; height: number };
}) {
  const money = (v: unknown) => formatMoney(Math.round(Number(v) * 100), currency);
  return (
    <BarChart data={rows} margin={margin} accessibilityLayer={false} {...size}>
      <CartesianGrid stroke="#1d2842" vertical={false} />
      <XAxis dataKey="label" {...axis} minTickGap={16} />
      <YAxis {...axis} width={64} tickFormatter={money} />
      <Tooltip {...tooltip} formatter={(v, name) => [money(v), name]} />
      <Legend wrapperStyle={{ color: '#cbd5e1', fontSize: 12 }} />
      <Bar dataKey="gross" name="Gross" fill="#60a5fa" isAnimationActive={false} />
      <Bar dataKey="net" name="Net" fill="#2dd4bf" isAnimationActive={false} />
    </BarChart>
  );
}

export default function AnalyticsCharts({
  rows,
  currency,
}: {
  rows: ChartRow[];
  currency: string;
}) {
  const money = (v: unknown) => formatMoney(Math.round(Number(v) * 100), currency);
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="analytics-charts">
      <Panel title="Revenue">
        <RevenueBars rows={rows} currency={currency} />
      </Panel>
      <Panel title="Sales">
        <BarChart data={rows} margin={margin} accessibilityLayer={false}>
          <CartesianGrid stroke="#1d2842" vertical={false} />
          <XAxis dataKey="label" {...axis} minTickGap={16} />
          <YAxis {...axis} width={40} allowDecimals={false} />
          <Tooltip {...tooltip} formatter={(v) => [String(v), 'Sales']} />
          <Bar dataKey="sales" fill="#2dd4bf" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </Panel>
      <Panel title="Refunds">
        <BarChart data={rows} margin={margin} accessibilityLayer={false}>
          <CartesianGrid stroke="#1d2842" vertical={false} />
          <XAxis dataKey="label" {...axis} minTickGap={16} />
          <YAxis {...axis} width={64} tickFormatter={money} />
          <Tooltip {...tooltip} formatter={(v) => [money(v), 'Refunded']} />
          <Bar dataKey="refunds" fill="#fb7185" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </Panel>
      <Panel title="Affiliate share">
        <BarChart data={rows} margin={margin} accessibilityLayer={false}>
          <CartesianGrid stroke="#1d2842" vertical={false} />
          <XAxis dataKey="label" {...axis} minTickGap={16} />
          <YAxis {...axis} width={64} tickFormatter={money} />
          <Tooltip {...tooltip} formatter={(v) => [money(v), 'Commission']} />
          <Bar dataKey="affiliate" fill="#a78bfa" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </Panel>
    </div>
  );
}
