/**
 * Which public pages changed, for the SSR page cache (`platform/web.ts`): a writer names the paths
 * it made stale (`/v/some-vendor`) and every cache listening renders them again on the next request
 * instead of serving its copy for up to `PAGE_CACHE_SECONDS`. Per process, like the cache itself; a
 * CDN in front still keeps its own copy for the page's `s-maxage`.
 */
export class PageInvalidations {
  private readonly listeners = new Set<(paths: ReadonlySet<string>) => void>();

  /** Calls `fn` with the stale paths of every later change; returns the way to stop. */
  listen(fn: (paths: ReadonlySet<string>) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Paths without query or origin, as the browser asks for them. */
  invalidate(paths: Iterable<string>): void {
    const set = new Set(paths);
    if (!set.size) return;
    for (const fn of this.listeners) fn(set);
  }
}
