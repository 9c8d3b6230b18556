import { useSyncExternalStore } from 'react';

const noSubscribe = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * False on the server and while React hydrates the server's HTML, true from the render after it
 * (and at once on client-side navigations): what depends on the browser renders then, so the
 * server's HTML and the hydrating render agree.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscribe, inBrowser, onServer);
}
