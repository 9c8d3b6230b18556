import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  SaleFilter,
  VendorCustomer,
  VendorRefund,
  VendorRefundBody,
  VendorSale,
  VendorSaleDetail,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

export interface SalesQuery {
  cursor?: string | undefined;
  status?: SaleFilter | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** A purchase id (a download's trace id) or a receipt number. */
  q?: string | undefined;
}

export interface SalesPage {
  sales: VendorSale[];
  nextCursor: string | null;
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

/** One page of the vendor's sales, with the list's filters. */
export const fetchVendorSales = requestThunk<SalesQuery, SalesPage>(
  'vendorSales/list',
  (q, { api }) => api.call(vendorEndpoints.vendorSales, { query: { limit: 20, ...defined(q) } }),
);

/** One sale with its payments, refunds and ledger. */
export const fetchVendorSale = requestThunk<string, VendorSaleDetail>(
  'vendorSales/one',
  async (id, { api }) => (await api.call(vendorEndpoints.vendorSale, { params: { id } })).sale,
);

/** Refunds a sale; the key makes a retry of the same refund refund once. */
export const refundVendorSale = requestThunk<
  { id: string; body: VendorRefundBody; key: string },
  { sale: VendorSaleDetail; refund: VendorRefund }
>('vendorSales/refund', ({ id, body, key }, { api }) =>
  api.call(
    vendorEndpoints.vendorRefund,
    { params: { id }, body },
    { headers: { 'Idempotency-Key': key } },
  ),
);

/** Ends the buyer's access (no money moves). */
export const revokeVendorSale = requestThunk<{ id: string; reason: string }, VendorSale>(
  'vendorSales/revoke',
  async ({ id, reason }, { api }) =>
    (await api.call(vendorEndpoints.vendorRevokeAccess, { params: { id }, body: { reason } })).sale,
);

export interface CustomersPage {
  customers: VendorCustomer[];
  nextCursor: string | null;
}

export const fetchVendorCustomers = requestThunk<
  { q?: string | undefined; cursor?: string | undefined },
  CustomersPage
>('vendorSales/customers', (q, { api }) =>
  api.call(vendorEndpoints.vendorCustomers, { query: { limit: 20, ...defined(q) } }),
);

/** The sale's invoice as PDF, the seller's copy (ADR 060). */
export const fetchSaleInvoicePdf = requestThunk<string, Blob>(
  'vendorSales/invoicePdf',
  (id, { api }) => api.call(vendorEndpoints.vendorSaleInvoicePdf, { params: { id } }),
);
