import type { SearchQuery } from '@tradeshelf/contract';

/**
 * Which search URLs search engines may index, and their canonical form (ADR 025). Indexable: `/search`
 * and one landing page per category (`/search?category=…`), both listed in the sitemap. Everything
 * else (a typed query, kind, platform, sort, price range, a later page) is a filtered view of those:
 * `noindex`, so crawlers do not spend their budget on endless combinations. The canonical URL keeps
 * only parameters the page understood, with a value, in one fixed order, and never a cursor: an
 * empty `?q=&category=` is the same page as `/search`.
 */
export function searchIndexing(query: SearchQuery): { canonicalPath: string; noindex: boolean } {
  const params = new URLSearchParams();
  const q = (query.q ?? '').trim();
  if (q) params.set('q', q);
  if (query.category) params.set('category', query.category);
  if (query.kind) params.set('kind', query.kind);
  if (query.platform) params.set('platform', query.platform);
  if (query.sort) params.set('sort', query.sort);
  if (typeof query.minPrice === 'number') params.set('min', String(query.minPrice / 100));
  if (typeof query.maxPrice === 'number') params.set('max', String(query.maxPrice / 100));
  const search = params.toString();
  const filtered = [...params.keys()].some((k) => k !== 'category') || Boolean(query.cursor);
  return { canonicalPath: search ? `/search?${search}` : '/search', noindex: filtered };
}
