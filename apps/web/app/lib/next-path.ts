// Where a page sends the user after signing in (`?next=`): a path on this site, never elsewhere.

/** Where a login goes when `next` is missing or not a path of this site. */
export const DEFAULT_NEXT = '/account';

const BASE = 'https://tradeshelf.invalid';

/**
 * `next` when it is a path of this site: one leading `/` (not `//`, which names a host), no
 * backslash (browsers read `/\host` as `//host`) and no control characters (browsers drop tabs and
 * newlines, so `/\t/host` becomes `//host`). Anything else, or a path that still resolves off this
 * origin or to a path that names a host, is `DEFAULT_NEXT`: navigating there would fail or leave
 * the site. What is returned is the resolved path, so dot segments cannot rebuild a `//`.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || next.length > 2048 || next[0] !== '/' || next[1] === '/') return DEFAULT_NEXT;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== BASE) return DEFAULT_NEXT;
  // The resolved form, never the raw one: `/..//host/x` resolves on-site to the path `//host/x`,
  // which a router or a prefetch link would read as another host.
  if (url.pathname.startsWith('//')) return DEFAULT_NEXT;
  return url.pathname + url.search + url.hash;
}
