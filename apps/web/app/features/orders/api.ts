import { endpoints } from '@tradeshelf/contract/client';
import type { Purchase } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

export interface PurchasePage {
  purchases: Purchase[];
  nextCursor: string | null;
}

/** The purchase behind a checkout session (the return page polls this). */
export const fetchPurchaseStatus = requestThunk<string, Purchase>(
  'order/status',
  async (sessionId, { api }) =>
    (await api.call(endpoints.purchaseStatus, { params: { id: sessionId } })).purchase,
);

export const fetchPurchaseDetails = requestThunk<string, Purchase>(
  'order/details',
  async (id, { api }) => (await api.call(endpoints.purchaseDetails, { params: { id } })).purchase,
);

/** One page of the buyer's purchases, newest first; with a cursor it is the next page. */
export const fetchPurchaseList = requestThunk<
  { cursor?: string; limit?: number } | undefined,
  PurchasePage
>('order/list', (arg, { api }) =>
  api.call(endpoints.purchaseList, {
    query: { limit: arg?.limit ?? 20, ...(arg?.cursor ? { cursor: arg.cursor } : {}) },
  }),
);
