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

const select =
  'rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400';

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
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-white">Products</h1>
        <Link
          to="/vendor/products/new"
          className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
        >
          New product
        </Link>
      </div>
      <div className="flex flex-wrap gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-300">
          Status
          <select
            className={select}
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
        <label className="flex items-center gap-2 text-sm text-slate-300">
          Kind
          <select
            className={select}
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as ProductKind | '');
              pages.reset();
            }}
          >
            <option value="">All</option>
            {productKinds.map((k) => (
              <option key={k} value={k}>
                {kindLabels[k]}
              </option>
            ))}
          </select>
        </label>
      </div>

      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your products…"
        isEmpty={() => rows.length === 0 && !pages.cursor}
        empty={
          <div className="flex flex-col items-start gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
            {filtered ? (
              <p className="text-slate-300">No products match these filters.</p>
            ) : (
              <>
                <p className="text-slate-300">
                  You have no products yet. Start with a draft: nobody sees it until you publish.
                </p>
                <Link
                  to="/vendor/products/new"
                  className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
                >
                  Create your first product
                </Link>
              </>
            )}
          </div>
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
