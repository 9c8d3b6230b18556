import { vendorProductStatuses } from '@tradeshelf/contract/client';
import type { VendorBundlesQuery, VendorProductStatus } from '@tradeshelf/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import { StatusPill, statusLabels } from '../products/index.ts';
import { useRead } from '../request.ts';
import { Screen } from '../../../components/screen.tsx';
import { cell, ListTable } from '../../../components/list-table.tsx';
import { fetchVendorBundles, type BundlesPage } from './api.ts';

const PAGE = 20;
const columns = [
  { label: 'Bundle' },
  { label: 'Status' },
  { label: 'Products' },
  { label: 'Price' },
  { label: 'Edited' },
];

const newBundleLink =
  'rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400';

/** `/vendor/bundles`: every bundle of the vendor with its status, products and price, paged. */
export function VendorBundleList() {
  const [status, setStatus] = useState<VendorProductStatus | ''>('');
  const pages = useCursorPages();
  const list = useRead<VendorBundlesQuery, BundlesPage>(fetchVendorBundles, {
    limit: PAGE,
    ...(status ? { status } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  });
  const rows = list.data?.bundles ?? [];

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">Bundles</h1>
          <p className="text-sm text-slate-400">
            Sell two or more of your products together, for one price.
          </p>
        </div>
        <Link to="/vendor/bundles/new" className={newBundleLink}>
          New bundle
        </Link>
      </div>
      <label className="flex items-center gap-2 self-start text-sm text-slate-300">
        Status
        <select
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as VendorProductStatus | '');
            pages.reset();
          }}
        >
          <option value="">All</option>
          {vendorProductStatuses.map((s) => (
            <option key={s} value={s}>
              {statusLabels[s]}
            </option>
          ))}
        </select>
      </label>

      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your bundles…"
        isEmpty={() => rows.length === 0 && !pages.cursor}
        empty={
          <div className="flex flex-col items-start gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
            {status ? (
              <p className="text-slate-300">No bundles with this status.</p>
            ) : (
              <>
                <p className="text-slate-300">
                  You have no bundles yet. Start with a draft: nobody sees it until you publish.
                </p>
                <Link to="/vendor/bundles/new" className={newBundleLink}>
                  Create your first bundle
                </Link>
              </>
            )}
          </div>
        }
      >
        {() => (
          <ListTable columns={columns} busy={list.status === 'loading'}>
            {rows.map((b) => (
              <tr key={b.id} className="bg-ink-950">
                <td className={cell}>
                  <Link
                    to={`/vendor/bundles/${encodeURIComponent(b.id)}`}
                    className="font-semibold text-white hover:text-brand-300"
                  >
                    {b.title || 'Untitled bundle'}
                  </Link>
                  <span className="sr-only">, edit</span>
                </td>
                <td className={cell}>
                  <StatusPill status={b.status} />
                </td>
                <td className={`${cell} text-slate-300`}>{b.productsCount}</td>
                <td className={`${cell} text-slate-300`}>
                  {b.price ? (
                    formatMoney(b.price.amount, b.price.currency)
                  ) : (
                    <span className="text-slate-400">No price</span>
                  )}
                </td>
                <td className={`${cell} text-slate-400`}>{formatDate(b.updatedAt)}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={list.status === 'loading'} />
    </div>
  );
}
