import { vendorProductStatuses } from '@tradeshelf/contract/client';
import type { VendorProductStatus } from '@tradeshelf/contract';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import { cell, ListTable } from '../../../components/list-table.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useRead, type Thunk } from '../request.ts';
import { PageHeader } from '../screen-kit.tsx';
import { statusLabels } from './labels.ts';
import { StatusPill } from './status.tsx';

// What the product and bundle lists share: one page with the heading and its New button, the
// filters, the table, its empty state and its pager.

const PAGE = 20;

const newLink =
  'rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400';

/** The list's title (and a line under it), with the way to a new draft. */
function ListHeading({
  title,
  intro,
  newPath,
  newLabel,
}: {
  title: string;
  intro?: string;
  newPath: string;
  newLabel: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <PageHeader title={title}>{intro}</PageHeader>
      <Link to={newPath} className={newLink}>
        {newLabel}
      </Link>
    </div>
  );
}

/** A filter of the list: its query parameter, and the values it offers by their labels. */
export interface ListingFilter<T extends string = string> {
  name: string;
  label: string;
  options: readonly T[];
  labels: Record<T, string>;
}

export const statusFilter: ListingFilter<VendorProductStatus> = {
  name: 'status',
  label: 'Status',
  options: vendorProductStatuses,
  labels: statusLabels,
};

/** A filter of the list: All, or one of `options` by its label. Choosing one starts at page 1. */
function FilterSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T | '';
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T | '') => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      {label}
      <select
        className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400"
        value={value}
        onChange={(e) => onChange(e.target.value as T | '')}
      >
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Nothing to list: `filtered` says so for the filters, else the way to the first draft. */
export function NoListings({
  filtered,
  noun,
  newPath,
}: {
  /** What to say when filters hid everything; null when no filter is on. */
  filtered: ReactNode | null;
  noun: 'product' | 'bundle';
  newPath: string;
}) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      {filtered ? (
        <p className="text-slate-300">{filtered}</p>
      ) : (
        <>
          <p className="text-slate-300">
            You have no {noun}s yet. Start with a draft: nobody sees it until you publish.
          </p>
          <Link to={newPath} className={newLink}>
            Create your first {noun}
          </Link>
        </>
      )}
    </div>
  );
}

interface ListingRow {
  id: string;
  title: string;
  status: VendorProductStatus;
  updatedAt: string;
}

/**
 * `/vendor/products`, `/vendor/bundles`: a page of listings at a time, each row's title (to its
 * editor) and status, the listing's own columns and when it was edited; the filters over it, the
 * empty state, and the pager. `read` is the list's thunk, `items` picks the rows from a page.
 */
export function ListingsPage<Q, Page extends { nextCursor: string | null }, R extends ListingRow>({
  noun,
  intro,
  read: thunk,
  items,
  filters,
  filtered,
  columns,
}: {
  noun: 'product' | 'bundle';
  intro?: string;
  read: Thunk<Q, Page>;
  items: (page: Page) => readonly R[];
  filters: readonly ListingFilter[];
  /** What to say when filters hid everything. */
  filtered: string;
  /** The columns between the status and the date. */
  columns: readonly { label: string; cell: (row: R) => ReactNode }[];
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const pages = useCursorPages();
  const on = filters.filter((f) => values[f.name]);
  const list = useRead<Q, Page>(thunk, {
    limit: PAGE,
    ...Object.fromEntries(on.map((f) => [f.name, values[f.name]])),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  } as Q);
  const rows = list.data ? items(list.data) : [];
  const base = `/vendor/${noun}s`;
  const Noun = noun === 'product' ? 'Product' : 'Bundle';
  const loading = list.status === 'loading';
  return (
    <div className="flex flex-col gap-5">
      <ListHeading
        title={`${Noun}s`}
        intro={intro}
        newPath={`${base}/new`}
        newLabel={`New ${noun}`}
      />
      <div className="flex flex-wrap gap-3">
        {filters.map((f) => (
          <FilterSelect
            key={f.name}
            label={f.label}
            value={values[f.name] ?? ''}
            options={f.options}
            labels={f.labels}
            onChange={(v) => {
              setValues({ ...values, [f.name]: v });
              pages.reset();
            }}
          />
        ))}
      </div>

      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading={`Loading your ${noun}s…`}
        isEmpty={() => rows.length === 0 && !pages.cursor}
        empty={
          <NoListings
            filtered={on.length > 0 ? filtered : null}
            noun={noun}
            newPath={`${base}/new`}
          />
        }
      >
        {() => (
          <ListTable
            columns={[
              { label: Noun },
              { label: 'Status' },
              ...columns.map((c) => ({ label: c.label })),
              { label: 'Edited' },
            ]}
            busy={loading}
          >
            {rows.map((r) => (
              <tr key={r.id} className="bg-ink-950">
                <td className={cell}>
                  <Link
                    to={`${base}/${encodeURIComponent(r.id)}`}
                    className="font-semibold text-white hover:text-brand-300"
                  >
                    {r.title || `Untitled ${noun}`}
                  </Link>
                  <span className="sr-only">, edit</span>
                </td>
                <td className={cell}>
                  <StatusPill status={r.status} />
                </td>
                {columns.map((c) => (
                  <td key={c.label} className={`${cell} text-slate-300`}>
                    {c.cell(r)}
                  </td>
                ))}
                <td className={`${cell} text-slate-400`}>{formatDate(r.updatedAt)}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={loading} />
    </div>
  );
}
