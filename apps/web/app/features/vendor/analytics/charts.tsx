// The analytics charts: recharts, as the affiliate dashboard draws its earnings, in a chunk of their
// own that only this screen loads (ADR 025). A table beside them carries the same numbers.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
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

export default function AnalyticsCharts({
  rows,
  currency,
}: {
  rows: ChartRow[];
  currency: string;
}) {
  const money = (v: unknown) => formatMoney(Math.round(Number(v) * 100), currency);
  const margin = { top: 8, right: 8, bottom: 0, left: 0 };
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="analytics-charts">
      <Panel title="Revenue">
        <LineChart data={rows} margin={margin} accessibilityLayer={false}>
          <CartesianGrid stroke="#1d2842" vertical={false} />
          <XAxis dataKey="label" {...axis} minTickGap={16} />
          <YAxis {...axis} width={64} tickFormatter={money} />
          <Tooltip {...tooltip} formatter={(v, name) => [money(v), name]} />
          <Legend wrapperStyle={{ color: '#cbd5e1', fontSize: 12 }} />
          <Line
            type="monotone"
            dataKey="gross"
            name="Gross"
            stroke="#60a5fa"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="net"
            name="Net"
            stroke="#2dd4bf"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
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
