import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import { authSlice, sessionEnded, sessionStarted } from './features/auth/slice.ts';
import { clearUser, userSlice } from './features/user/slice.ts';
import { productSlice, sellerSlice } from './features/catalog/slice.ts';
import { orderSlice } from './features/orders/slice.ts';
import { supportSlice } from './features/support/slice.ts';
import { membershipSlice } from './features/membership/slice.ts';
import { courseSlice } from './features/courses/slice.ts';
import { discordSlice } from './features/discord/slice.ts';
import { ApiClient } from './lib/http.ts';
import { memoryStorage, SessionStore, type KeyValueStorage } from './lib/session.ts';

export interface ThunkExtra {
  api: ApiClient;
  session: SessionStore;
  now: () => number;
}

const rootReducer = combineReducers({
  auth: authSlice.reducer,
  user: userSlice.reducer,
  product: productSlice.reducer,
  seller: sellerSlice.reducer,
  order: orderSlice.reducer,
  support: supportSlice.reducer,
  membership: membershipSlice.reducer,
  course: courseSlice.reducer,
  discord: discordSlice.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

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
 * (SPEC §4: after the 5-second delay), a cleared one (logout, expiry, failed refresh) logs out.
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
  return { store, session, api };
}

export type AppStore = ReturnType<typeof makeStore>['store'];
export type AppDispatch = AppStore['dispatch'];
