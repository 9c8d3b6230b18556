import { saleFilters, type SaleFilter } from '@tradeshelf/contract/client';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Button } from '../../../components/ui.tsx';
import { TitledSection } from '../../../components/titled-section.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useRead } from '../request.ts';
import { fetchVendorSales, type SalesPage, type SalesQuery } from './api.ts';
import { badgeClass, exactMoney, saleStatus } from '../money-format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import { cell, ListTable } from '../../../components/list-table.tsx';

const columns = [
  { label: 'Date' },
  { label: 'Item' },
  { label: 'Buyer' },
  { label: 'Total', align: 'right' },
  { label: 'Status' },
  { label: 'Details', hidden: true },
] as const;

const filterLabels: Record<SaleFilter, string> = {
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  revoked: 'Access revoked',
  disputed: 'Disputed',
};

/** A day typed in a date field, as the start of that day in the reader's time zone. */
const dayStart = (day: string, plusDays = 0) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

export function SalesList() {
  const [filters, setFilters] = useState({ status: '', from: '', to: '', q: '' });
  const [applied, setApplied] = useState(filters);
  const pages = useCursorPages();
  const read = useRead<SalesQuery, SalesPage>(fetchVendorSales, {
    cursor: pages.cursor,
    status: (applied.status || undefined) as SaleFilter | undefined,
    from: dayStart(applied.from),
    to: dayStart(applied.to, 1),
    q: applied.q.trim() || undefined,
  });
  const [rangeError, setRangeError] = useState<string | null>(null);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (filters.from && filters.to && filters.to < filters.from) {
      setRangeError('The end date must be on or after the start date.');
      return;
    }
    setRangeError(null);
    pages.reset();
    setApplied(filters);
  };

  const sales = read.data?.sales ?? [];
  return (
    <TitledSection look="list" headingId="sales-heading" title="Sales">
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3" aria-label="Filter sales">
        <label className="flex flex-col gap-1 text-sm text-slate-200">
          Status
          <select
            value={filters.status}
            onChange={(e) => setFilters({ ...filters, status: e.target.value })}
            className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100"
          >
            <option value="">All</option>
            {saleFilters.map((f) => (
              <option key={f} value={f}>
                {filterLabels[f]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm text-slate-200">
          From
          <input
            type="date"
            value={filters.from}
            onChange={(e) => setFilters({ ...filters, from: e.target.value })}
            className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-slate-100"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm text-slate-200">
          To
          <input
            type="date"
            value={filters.to}
            onChange={(e) => setFilters({ ...filters, to: e.target.value })}
            className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-slate-100"
          />
        </label>
        {/* The id in a download's LICENSE file finds the sale it came from (issue 29). */}
        <label className="flex flex-col gap-1 text-sm text-slate-200">
          Purchase id or receipt
          <input
            type="search"
            value={filters.q}
            maxLength={100}
            placeholder="pur_… from a LICENSE file"
            onChange={(e) => setFilters({ ...filters, q: e.target.value })}
            className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-slate-100"
          />
        </label>
        <Button type="submit" variant="ghost">
          Apply
        </Button>
      </form>
      {rangeError && <Alert>{rangeError}</Alert>}
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading sales…"
        isEmpty={() => !sales.length}
        empty={
          <Alert tone="info">
            {applied.status || applied.from || applied.to || applied.q
              ? 'No sales match these filters.'
              : 'No sales yet. When a buyer pays, the sale shows here.'}
          </Alert>
        }
      >
        {() => (
          <ListTable columns={columns} busy={read.status === 'loading'} minWidth="min-w-[40rem]">
            {sales.map((s) => {
              const st = saleStatus(s);
              return (
                <tr key={s.id} className="text-slate-200">
                  <td className={`${cell} whitespace-nowrap`}>
                    {formatDate(s.paidAt ?? s.createdAt)}
                  </td>
                  <td className={cell}>{s.item.title}</td>
                  <td className={cell}>{s.buyer.username ?? s.buyer.email}</td>
                  <td className={`${cell} text-right tabular-nums`}>{exactMoney(s.money.gross)}</td>
                  <td className={cell}>
                    <span className={badgeClass(st.tone)}>{st.label}</span>
                  </td>
                  <td className={`${cell} text-right`}>
                    <Link
                      to={`/vendor/sales/${encodeURIComponent(s.id)}`}
                      className="font-semibold text-brand-300 hover:underline"
                      aria-label={`View the sale of ${s.item.title} to ${s.buyer.username ?? s.buyer.email}`}
                    >
                      View
                    </Link>
                  </td>
                </tr>
              );
            })}
          </ListTable>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={read.data?.nextCursor} busy={read.status === 'loading'} />
    </TitledSection>
  );
}
