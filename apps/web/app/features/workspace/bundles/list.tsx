import { vendorProductStatuses } from '@tradeshelf/contract/client';
import type {
  VendorBundleRow,
  VendorBundlesQuery,
  VendorProductStatus,
} from '@tradeshelf/contract';
import { useState } from 'react';
import { formatMoney } from '../../../lib/format.ts';
import { useCursorPages } from '../../../components/list-pager.tsx';
import { FilterSelect, ListHeading, ListingsTable, statusLabels } from '../products/index.ts';
import { useRead } from '../request.ts';
import { fetchVendorBundles, type BundlesPage } from './api.ts';

const PAGE = 20;
const columns = [
  { label: 'Products', cell: (b: VendorBundleRow) => b.productsCount },
  {
    label: 'Price',
    cell: (b: VendorBundleRow) =>
      b.price ? (
        formatMoney(b.price.amount, b.price.currency)
      ) : (
        <span className="text-slate-400">No price</span>
      ),
  },
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

      <ListingsTable
        noun="bundle"
        list={list}
        rows={rows}
        pages={pages}
        filtered={status ? 'No bundles with this status.' : null}
        columns={columns}
      />
    </div>
  );
}
