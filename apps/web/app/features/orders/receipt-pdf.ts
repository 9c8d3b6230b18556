// The order's receipt and invoice as PDF (ADR 060). Its own file: `api.ts` is in the product page's
// chunk (checkout), and a thunk is kept wherever its module is loaded.
import { accountEndpoints } from '@tradeshelf/contract/client';
import { requestThunk } from '../../lib/thunk.ts';

export const fetchReceiptPdf = requestThunk<string, Blob>('order/receiptPdf', (id, { api }) =>
  api.call(accountEndpoints.purchaseReceiptPdf, { params: { id } }),
);
