import { createSlice } from '@reduxjs/toolkit';
import type { Purchase } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
import {
  fetchPurchaseDetails,
  fetchPurchaseList,
  fetchPurchaseStatus,
  type PurchasePage,
} from './api.ts';

/** The order group (docs/product.md#request-groups). */
export interface OrderState {
  /** The purchase behind the checkout session the buyer came back from. */
  status: RequestState<Purchase>;
  details: RequestState<Purchase>;
  /** Pages loaded so far, newest first; `nextCursor` null when there are no more. */
  list: RequestState<PurchasePage>;
}

export const initialOrderState: OrderState = {
  status: idle<Purchase>(),
  details: idle<Purchase>(),
  list: idle<PurchasePage>(),
};

export const FINAL_STATUSES: ReadonlyArray<Purchase['status']> = [
  'paid',
  'failed',
  'cancelled',
  'refunded',
];
export const isFinal = (p: Pick<Purchase, 'status'>) => FINAL_STATUSES.includes(p.status);

/** A fresher copy of a purchase replaces the one in the loaded list. */
function refreshInList(s: OrderState, purchase: Purchase) {
  const list = s.list.data?.purchases;
  const i = list?.findIndex((p) => p.id === purchase.id) ?? -1;
  if (list && i >= 0) list[i] = purchase;
}

export const orderSlice = createSlice({
  name: 'order',
  initialState: initialOrderState,
  reducers: {},
  extraReducers: (b) => {
    addRequestCases(b, fetchPurchaseStatus, (s) => s.status, {
      // Polling keeps showing the last answer; another session starts from nothing.
      started: (s, sessionId) => {
        if (s.status.data?.sessionId !== sessionId) s.status.data = null;
      },
      done: refreshInList,
    });
    addRequestCases(b, fetchPurchaseDetails, (s) => s.details, {
      started: (s, id) => {
        if (s.details.data?.id !== id) s.details.data = null;
      },
      done: refreshInList,
    });
    b.addCase(fetchPurchaseList.pending, (s) => start(s.list))
      .addCase(fetchPurchaseList.fulfilled, (s, a) => {
        const more = Boolean(a.meta.arg?.cursor) && s.list.data !== null;
        if (!more) return succeed(s.list, a.payload);
        // "Load more": append the next page, skipping anything already shown.
        const seen = new Set(s.list.data!.purchases.map((p) => p.id));
        succeed(s.list, {
          purchases: [
            ...s.list.data!.purchases,
            ...a.payload.purchases.filter((p) => !seen.has(p.id)),
          ],
          nextCursor: a.payload.nextCursor,
        });
      })
      .addCase(fetchPurchaseList.rejected, (s, a) => fail(s.list, a.payload))
      // Orders are the signed-in buyer's: nothing of them outlives the session.
      .addCase(sessionEnded, () => initialOrderState)
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.order));
  },
});
