import { createSlice } from '@reduxjs/toolkit';
import type {
  TradingViewAccessResponse,
  TradingViewAccount,
  TradingViewScript,
} from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { addRequestCases, idle, succeed, type RequestState } from '../../lib/request-state.ts';
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
    addRequestCases(b, fetchTradingViewAccess, (s) => s.access, {
      done: (s, access) => succeed(s.account, access.tradingview),
    });
    addRequestCases(b, saveTradingViewUsername, (s) => s.save, {
      // The answer is the access as the new name left it.
      done: (s, access) => {
        succeed(s.access, access);
        succeed(s.account, access.tradingview);
      },
    });
    addRequestCases(
      b,
      fetchProductScripts,
      // An answer for a product no longer open lands nowhere.
      (s, productId) => (s.scripts.productId === productId ? s.scripts : idle()),
      {
        started: (s, productId) => {
          if (s.scripts.productId !== productId) s.scripts.data = null;
          s.scripts.productId = productId;
        },
      },
    );
    // The buyer's name and access are theirs alone: nothing outlives the session.
    b.addCase(sessionEnded, (s) => ({ ...initialTradingViewState, scripts: s.scripts }));
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(tradingviewSlice);

export const { saveReset } = tradingviewSlice.actions;
