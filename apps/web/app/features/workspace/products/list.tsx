import { planBillingLabels, productKinds } from '@tradeshelf/contract/client';
import type { ProductKind, VendorPlan, VendorProductRow } from '@tradeshelf/contract';
import { formatMoney } from '../../../lib/format.ts';
import { fetchVendorProducts, type ProductsPage } from './api.ts';
import { kindLabels } from './labels.ts';
import { ListingsPage, statusFilter, type ListingFilter } from './list-kit.tsx';
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

const kindFilter: ListingFilter<ProductKind> = {
  name: 'kind',
  label: 'Kind',
  options: productKinds,
  labels: kindLabels,
};

/** `/vendor/products`: every product of the vendor with its status, kind and price, paged. */
export function VendorProductList() {
  return (
    <ListingsPage
      noun="product"
      read={fetchVendorProducts}
      items={(page: ProductsPage) => page.products}
      filters={[statusFilter, kindFilter]}
      filtered="No products match these filters."
      columns={columns}
    />
  );
}
