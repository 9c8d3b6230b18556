import {
  planBillingLabels,
  productKinds,
  vendorProductStatuses,
} from '@tradeshelf/contract/client';
import type {
  ProductKind,
  VendorPlan,
  VendorProductRow,
  VendorProductStatus,
  VendorProductsQuery,
} from '@tradeshelf/contract';
import { useState } from 'react';
import { useCursorPages } from '../../../components/list-pager.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useRead } from '../request.ts';
import { fetchVendorProducts, type ProductsPage } from './api.ts';
import { kindLabels, statusLabels } from './labels.ts';
import { FilterSelect, ListHeading, ListingsTable } from './list-kit.tsx';

const PAGE = 20;
const columns = [
  { label: 'Kind', cell: (p: VendorProductRow) => kindLabels[p.kind] },
  {
    label: 'Price',
    cell: (p: VendorProductRow) => (
      <>
        {p.price ? planLabel(p.price) : <span className="text-slate-400">No plan</span>}
        {p.plansCount > 1 && <span className="text-slate-400"> +{p.plansCount - 1} more</span>}
      </>
    ),
  },
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

      <ListingsTable
        noun="product"
        list={list}
        rows={rows}
        pages={pages}
        filtered={filtered ? 'No products match these filters.' : null}
        columns={columns}
      />
    </div>
  );
}
