// The earnings chart: recharts, loaded only by the affiliate dashboard (a chunk of its own, ADR 025).
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format.ts';
import { monthLabel } from './format.ts';

export interface EarningsPoint {
  month: string;
  amount: number;
}

/** Drawn for sighted readers; the table beside it carries the same numbers for everyone else. */
export default function EarningsChart({
  points,
  currency,
}: {
  points: EarningsPoint[];
  currency: string;
}) {
  const data = points.map((p) => ({ label: monthLabel(p.month), amount: p.amount / 100 }));
  return (
    <div aria-hidden="true" className="h-56 w-full" data-testid="earnings-chart">
      <ResponsiveContainer width="100%" height="100%">
        {/* Hidden from assistive tech (the table carries the numbers), so not focusable either. */}
        <BarChart
          data={data}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="#1d2842" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: '#cbd5e1', fontSize: 12 }} stroke="#2b3a5c" />
          <YAxis
            tick={{ fill: '#cbd5e1', fontSize: 12 }}
            stroke="#2b3a5c"
            width={56}
            tickFormatter={(v: number) => formatMoney(Math.round(v * 100), currency)}
          />
          <Tooltip
            cursor={{ fill: '#121a2e' }}
            contentStyle={{ background: '#0b1020', border: '1px solid #2b3a5c', color: '#f1f5f9' }}
            labelStyle={{ color: '#f1f5f9' }}
            formatter={(v) => [formatMoney(Math.round(Number(v) * 100), currency), 'Earned']}
          />
          <Bar dataKey="amount" fill="#2dd4bf" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
