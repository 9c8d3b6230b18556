import { vendorProductStatuses } from '@tradeshelf/contract/client';
import type { VendorBundlesQuery, VendorProductStatus } from '@tradeshelf/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import {
  FilterSelect,
  ListHeading,
  NoListings,
  StatusPill,
  statusLabels,
} from '../products/index.ts';
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
      <ListHeading
        title="Bundles"
        intro="Sell two or more of your products together, for one price."
        newPath="/vendor/bundles/new"
        newLabel="New bundle"
      />
      <div className="self-start">
        <FilterSelect
          label="Status"
          value={status}
          options={vendorProductStatuses}
          labels={statusLabels}
          onChange={(s) => {
            setStatus(s);
            pages.reset();
          }}
        />
      </div>

      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your bundles…"
        isEmpty={() => rows.length === 0 && !pages.cursor}
        empty={
          <NoListings
            filtered={status ? 'No bundles with this status.' : null}
            noun="bundle"
            newPath="/vendor/bundles/new"
          />
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
