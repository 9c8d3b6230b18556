import { combineSlices, configureStore, createAction, type WithSlice } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import { authSlice, sessionEnded, sessionStarted } from './features/auth/slice.ts';
import { clearUser, userSlice } from './features/users/slice.ts';
import { productSlice, sellerSlice } from './features/catalog/slice.ts';
import { orderSlice } from './features/orders/slice.ts';
import { membershipSlice } from './features/membership/slice.ts';
import { reviewSlice } from './features/reviews/slice.ts';
import type { affiliateSlice } from './features/affiliates/slice.ts';
import type { courseSlice } from './features/courses/slice.ts';
import type { discordSlice } from './features/discord/slice.ts';
import type { deliverablesSlice } from './features/deliverables/slice.ts';
import type { licenceSlice } from './features/licences/slice.ts';
import type { supportSlice } from './features/support/slice.ts';
import type { tradingviewSlice } from './features/tradingview/slice.ts';
import { ApiClient } from './lib/http.ts';
import { takeLazySlices } from './lib/lazy-slices.ts';
import { memoryStorage, SessionStore, type KeyValueStorage } from './lib/session.ts';

export interface ThunkExtra {
  api: ApiClient;
  session: SessionStore;
  now: () => number;
}

/** Slices their features add when their code loads (lib/lazy-slices.ts, ADR 038). */
type LazyLoadedSlices = WithSlice<typeof supportSlice> &
  WithSlice<typeof courseSlice> &
  WithSlice<typeof deliverablesSlice> &
  WithSlice<typeof discordSlice> &
  WithSlice<typeof licenceSlice> &
  WithSlice<typeof tradingviewSlice> &
  WithSlice<typeof affiliateSlice>;

/** The slices every page needs: the shell's, and the public pages'. */
const rootReducer = combineSlices(
  authSlice,
  userSlice,
  productSlice,
  sellerSlice,
  orderSlice,
  membershipSlice,
  reviewSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

/** Gives an injected slice its initial state in the live store before anything reads it. */
const sliceInjected = createAction<string>('store/sliceInjected');
let liveStore: { dispatch: (action: ReturnType<typeof sliceInjected>) => unknown } | null = null;
takeLazySlices((slice) => {
  rootReducer.inject(slice);
  liveStore?.dispatch(sliceInjected(slice.reducerPath));
});

// A lazy slice's state is there whenever code that reads it has loaded, so the type says it is.
export type RootState = Omit<ReturnType<typeof rootReducer>, keyof LazyLoadedSlices> &
  LazyLoadedSlices;

export type PreloadedState = Partial<RootState>;

export interface StoreOptions {
  baseUrl?: string;
  storage?: KeyValueStorage;
  fetch?: typeof fetch;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** State to start from (e.g. what the server rendered with); `hydrate` merges more later. */
  preloadedState?: PreloadedState;
}

/**
 * Builds the store with its session and API client; storage, fetch, clock and timers are
 * injectable for tests. The store follows the session: a stored session marks the user logged in
 * (docs/product.md#sessions: after the 5-second delay), a cleared one (logout, expiry, failed refresh) logs out.
 */
export function makeStore(options: StoreOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const storage =
    options.storage ?? (typeof window !== 'undefined' ? window.localStorage : memoryStorage());
  // The refresher needs the client and the client needs the session: tie the knot through a holder.
  const holder: { api?: ApiClient } = {};
  const session = new SessionStore({
    storage,
    now,
    setTimer: options.setTimer ?? ((fn, ms) => setTimeout(fn, ms)),
    clearTimer: options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)),
    refresh: (record) =>
      holder.api!.refresh(endpoints.refreshToken, record.userId, record.refreshToken),
  });
  const api = new ApiClient(options.baseUrl ?? '', session, options.fetch);
  holder.api = api;
  const extra: ThunkExtra = { api, session, now };
  const store = configureStore({
    reducer: rootReducer,
    ...(options.preloadedState ? { preloadedState: options.preloadedState } : {}),
    middleware: (gdm) => gdm({ thunk: { extraArgument: extra } }),
  });
  // The browser has one store per page load; the server's are per request, made after every
  // slice has loaded, so only the browser's needs telling about slices that load later.
  if (typeof window !== 'undefined') liveStore = store;
  session.subscribe((e) => {
    if (e.type === 'stored') {
      const { isLoggedIn, userId, signingIn } = store.getState().auth;
      if (!isLoggedIn || userId !== e.record.userId || signingIn)
        store.dispatch(sessionStarted(e.record.userId));
    } else {
      store.dispatch(sessionEnded());
      store.dispatch(clearUser());
    }
  });
  // Read through RootState: a lazy slice's state is there once its feature has loaded.
  const typed = store as Omit<typeof store, 'getState'> & { getState: () => RootState };
  return { store: typed, session, api };
}

export type AppStore = ReturnType<typeof makeStore>['store'];
export type AppDispatch = AppStore['dispatch'];
