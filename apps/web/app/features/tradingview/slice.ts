import { createSlice } from '@reduxjs/toolkit';
import type {
  TradingViewAccessResponse,
  TradingViewAccount,
  TradingViewScript,
} from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
import {
  fetchProductScripts,
  fetchTradingViewAccess,
  fetchTradingViewAccount,
  saveTradingViewUsername,
} from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/** The buyer's TradingView username and access (the library), and a product's scripts. */
export interface TradingViewState {
  access: RequestState<TradingViewAccessResponse>;
  account: RequestState<TradingViewAccount>;
  save: RequestState<TradingViewAccessResponse>;
  /** The scripts of the product page open now; `productId` says whose. */
  scripts: RequestState<TradingViewScript[]> & { productId: string | null };
}

export const initialTradingViewState: TradingViewState = {
  access: idle(),
  account: idle(),
  save: idle(),
  scripts: { ...idle<TradingViewScript[]>(), productId: null },
};

export const tradingviewSlice = createSlice({
  name: 'tradingview',
  initialState: initialTradingViewState,
  reducers: {
    /** The form was edited after a failed save: its error goes. */
    saveReset: (s) => {
      s.save = idle();
    },
  },
  extraReducers: (b) => {
    // Polling keeps the cards on screen while it asks again.
    addRequestCases(b, fetchTradingViewAccount, (s) => s.account);
    b.addCase(fetchTradingViewAccess.pending, (s) => start(s.access))
      .addCase(fetchTradingViewAccess.fulfilled, (s, a) => {
        succeed(s.access, a.payload);
        succeed(s.account, a.payload.tradingview);
      })
      .addCase(fetchTradingViewAccess.rejected, (s, a) => fail(s.access, a.payload))
      .addCase(saveTradingViewUsername.pending, (s) => start(s.save))
      .addCase(saveTradingViewUsername.fulfilled, (s, a) => {
        succeed(s.save, a.payload);
        // The answer is the access as the new name left it.
        succeed(s.access, a.payload);
        succeed(s.account, a.payload.tradingview);
      })
      .addCase(saveTradingViewUsername.rejected, (s, a) => fail(s.save, a.payload))
      .addCase(fetchProductScripts.pending, (s, a) => {
        if (s.scripts.productId !== a.meta.arg) s.scripts.data = null;
        s.scripts.productId = a.meta.arg;
        start(s.scripts);
      })
      .addCase(fetchProductScripts.fulfilled, (s, a) => {
        if (s.scripts.productId === a.meta.arg) succeed(s.scripts, a.payload);
      })
      .addCase(fetchProductScripts.rejected, (s, a) => {
        if (s.scripts.productId === a.meta.arg) fail(s.scripts, a.payload);
      })
      // The buyer's name and access are theirs alone: nothing outlives the session.
      .addCase(sessionEnded, (s) => ({ ...initialTradingViewState, scripts: s.scripts }));
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(tradingviewSlice);

export const { saveReset } = tradingviewSlice.actions;
