import { useSyncExternalStore } from 'react';

const noSubscribe = () => () => {};

/**
 * A value only the browser knows (WebAuthn, the stored session), read once: `onServer` on the server
 * and while React hydrates the server's HTML, `read()` from the render after it (and at once on
 * client-side navigations), so the server's HTML and the hydrating render agree.
 */
export function useBrowserValue<T>(read: () => T, onServer: T): T {
  return useSyncExternalStore(noSubscribe, read, () => onServer);
}

const inBrowser = () => true;

/** False on the server and while hydrating, true after (`useBrowserValue`). */
export function useHydrated(): boolean {
  return useBrowserValue(inBrowser, false);
}
