import type { VendorBundleRow } from '@tradeshelf/contract';
import { formatMoney } from '../../../lib/format.ts';
import { ListingsPage, statusFilter } from '../products/index.ts';
import { fetchVendorBundles, type BundlesPage } from './api.ts';

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
  return (
    <ListingsPage
      noun="bundle"
      intro="Sell two or more of your products together, for one price."
      read={fetchVendorBundles}
      items={(page: BundlesPage) => page.bundles}
      filters={[statusFilter]}
      filtered="No bundles with this status."
      columns={columns}
    />
  );
}
