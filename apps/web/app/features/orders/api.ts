import { createAsyncThunk } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import type { ApiError, Purchase } from '@tradeshelf/contract';
import { toApiError } from '../../lib/http.ts';
import type { ThunkExtra } from '../../store.ts';

type Config = { extra: ThunkExtra; rejectValue: ApiError };

export interface PurchasePage {
  purchases: Purchase[];
  nextCursor: string | null;
}

/** The purchase behind a checkout session (the return page polls this). */
export const fetchPurchaseStatus = createAsyncThunk<Purchase, string, Config>(
  'order/status',
  async (sessionId, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.purchaseStatus, { params: { id: sessionId } }))
        .purchase;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

export const fetchPurchaseDetails = createAsyncThunk<Purchase, string, Config>(
  'order/details',
  async (id, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.purchaseDetails, { params: { id } })).purchase;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

/** One page of the buyer's purchases, newest first; with a cursor it is the next page. */
export const fetchPurchaseList = createAsyncThunk<
  PurchasePage,
  { cursor?: string; limit?: number } | undefined,
  Config
>('order/list', async (arg, { extra, rejectWithValue }) => {
  try {
    return await extra.api.call(endpoints.purchaseList, {
      query: { limit: arg?.limit ?? 20, ...(arg?.cursor ? { cursor: arg.cursor } : {}) },
    });
  } catch (err) {
    return rejectWithValue(toApiError(err));
  }
});
