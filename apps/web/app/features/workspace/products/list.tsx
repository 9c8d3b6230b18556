import {
  planBillingLabels,
  productKinds,
  vendorProductStatuses,
} from '@tradeshelf/contract/client';
import type {
  ProductKind,
  VendorPlan,
  VendorProductStatus,
  VendorProductsQuery,
} from '@tradeshelf/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { cell, ListTable } from '../../../components/list-table.tsx';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { useRead } from '../request.ts';
import { fetchVendorProducts, type ProductsPage } from './api.ts';
import { kindLabels, statusLabels } from './labels.ts';
import { StatusPill } from './status.tsx';
import { FilterSelect, ListHeading, NoListings } from './list-kit.tsx';

const PAGE = 20;
const columns = [
  { label: 'Product' },
  { label: 'Status' },
  { label: 'Kind' },
  { label: 'Price' },
  { label: 'Edited' },
];

export const planLabel = (p: VendorPlan) =>
  `${formatMoney(p.amount, p.currency)} ${planBillingLabels[p.billing].toLowerCase()}`;

/** `/vendor/products`: every product of the vendor with its status, kind and price, paged. */
export function VendorProductList() {
  const [status, setStatus] = useState<VendorProductStatus | ''>('');
  const [kind, setKind] = useState<ProductKind | ''>('');
  const pages = useCursorPages();
  const list = useRead<VendorProductsQuery, ProductsPage>(fetchVendorProducts, {
    limit: PAGE,
    ...(status ? { status } : {}),
    ...(kind ? { kind } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  });
  const filtered = Boolean(status || kind);
  const rows = list.data?.products ?? [];

  return (
    <div className="flex flex-col gap-5">
      <ListHeading title="Products" newPath="/vendor/products/new" newLabel="New product" />
      <div className="flex flex-wrap gap-3">
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
        <FilterSelect
          label="Kind"
          value={kind}
          options={productKinds}
          labels={kindLabels}
          onChange={(k) => {
            setKind(k);
            pages.reset();
          }}
        />
      </div>

      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your products…"
        isEmpty={() => rows.length === 0 && !pages.cursor}
        empty={
          <NoListings
            filtered={filtered ? 'No products match these filters.' : null}
            noun="product"
            newPath="/vendor/products/new"
          />
        }
      >
        {() => (
          <ListTable columns={columns} busy={list.status === 'loading'}>
            {rows.map((p) => (
              <tr key={p.id} className="bg-ink-950">
                <td className={cell}>
                  <Link
                    to={`/vendor/products/${encodeURIComponent(p.id)}`}
                    className="font-semibold text-white hover:text-brand-300"
                  >
                    {p.title || 'Untitled product'}
                  </Link>
                  <span className="sr-only">, edit</span>
                </td>
                <td className={cell}>
                  <StatusPill status={p.status} />
                </td>
                <td className={`${cell} text-slate-300`}>{kindLabels[p.kind]}</td>
                <td className={`${cell} text-slate-300`}>
                  {p.price ? planLabel(p.price) : <span className="text-slate-400">No plan</span>}
                  {p.plansCount > 1 && (
                    <span className="text-slate-400"> +{p.plansCount - 1} more</span>
                  )}
                </td>
                <td className={`${cell} text-slate-400`}>{formatDate(p.updatedAt)}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={list.status === 'loading'} />
    </div>
  );
}
