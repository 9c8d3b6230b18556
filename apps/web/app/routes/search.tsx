import { useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import {
  catalogCategories,
  categoryLabels,
  productKinds,
  searchSorts,
  tradingPlatforms,
} from '@tradeshelf/contract/client';
import type { SearchQuery } from '@tradeshelf/contract';
import { ProductGrid } from '../features/catalog/components.tsx';
import { useOwnedSearch } from '../features/catalog/hooks.ts';
import { NoResults, suggestionPath } from '../features/catalog/no-results.tsx';
import { resultCountLabel } from '../features/catalog/result-count.ts';
import { SearchBox } from '../features/catalog/search-box.tsx';
import { SearchFilters } from '../features/catalog/search-filters.tsx';
import { SaveSearch } from '../features/membership/components.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { breadcrumbs, originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import { searchIndexing } from '../lib/search-seo.ts';
import type { Route } from './+types/search';

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const dollars = (v: string | null) => (v && /^\d{1,7}$/.test(v) ? Number(v) * 100 : undefined);

/** The URL is the state: everything the results depend on comes from the query string. */
export function queryFromUrl(url: URL): SearchQuery {
  const p = url.searchParams;
  const q: SearchQuery = { q: (p.get('q') ?? '').slice(0, 200), limit: 24 };
  const category = pick(p.get('category'), catalogCategories);
  const kind = pick(p.get('kind'), productKinds);
  const platform = pick(p.get('platform'), tradingPlatforms);
  const sort = pick(p.get('sort'), searchSorts);
  const minPrice = dollars(p.get('min'));
  const maxPrice = dollars(p.get('max'));
  const cursor = p.get('cursor');
  if (category) q.category = category;
  if (kind) q.kind = kind;
  if (platform) q.platform = platform;
  if (sort) q.sort = sort;
  if (minPrice !== undefined) q.minPrice = minPrice;
  if (maxPrice !== undefined) q.maxPrice = maxPrice;
  if (cursor && cursor.length <= 200) q.cursor = cursor;
  return q;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = queryFromUrl(url);
  try {
    const result = await loadFrom(context, request, routes.search, { query });
    return { query, result, page: url.searchParams.get('page') ?? '1' };
  } catch {
    // An expired cursor or a bad filter: show the first page instead of an error.
    const result = await loadFrom(context, request, routes.search, {
      query: { ...query, cursor: undefined },
    });
    return { query: { ...query, cursor: undefined }, result, page: '1' };
  }
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  const q = data?.query.q ?? '';
  const indexing = searchIndexing(
    data?.query ?? queryFromUrl(new URL(location.search, 'http://x')),
  );
  const category = data?.query.category ? categoryLabels[data.query.category] : '';
  const title = q ? `“${q}”${category ? ` in ${category}` : ''}` : category || 'Search';
  const origin = originOf(matches);
  return seo({
    title,
    description: `Trading ${category ? category.toLowerCase() : 'tools'}${q ? ` matching “${q}”` : ''}: compare prices, platforms and ratings on Tradeshelf.`,
    path: indexing.canonicalPath,
    origin,
    // Filtered and paged variants are not separate pages for search engines (ADR 025).
    noindex: indexing.noindex,
    jsonLd: [
      breadcrumbs(origin, [
        ['Home', '/'],
        [category || 'Search', `/search${category ? `?category=${data?.query.category}` : ''}`],
      ]),
    ],
  });
};

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query } = loaderData;
  const result = useOwnedSearch(loaderData.query, loaderData.result);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === '/search';
  const formRef = useRef<HTMLFormElement>(null);
  const submitOnChange = () => formRef.current?.requestSubmit();
  const nextParams = new URLSearchParams();
  for (const [k, v] of Object.entries({
    q: query.q,
    category: query.category,
    kind: query.kind,
    platform: query.platform,
    sort: query.sort,
    min: query.minPrice !== undefined ? String(query.minPrice / 100) : undefined,
    max: query.maxPrice !== undefined ? String(query.maxPrice / 100) : undefined,
  })) {
    if (v) nextParams.set(k, v);
  }
  if (result.nextCursor) nextParams.set('cursor', result.nextCursor);
  const empty = result.products.length === 0 && result.bundles.length === 0;
  const heading = query.q
    ? `Results for “${query.q}”`
    : query.category
      ? categoryLabels[query.category]
      : 'All products';

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      {/* key: a new search (back button, link) resets the form to the URL's values. */}
      <Form
        ref={formRef}
        method="get"
        action="/search"
        role="search"
        className="flex flex-col gap-3"
        key={JSON.stringify(query)}
      >
        <div className="flex gap-2">
          <SearchBox initial={query.q ?? ''} />
          <button
            type="submit"
            className="rounded-lg bg-brand-500 px-5 py-3 font-semibold text-ink-950 hover:bg-brand-400"
          >
            Search
          </button>
        </div>
        <SearchFilters query={query} submitOnChange={submitOnChange} />
      </Form>
      <div
        aria-live="polite"
        aria-busy={busy}
        className={busy ? 'opacity-60 transition' : 'transition'}
      >
        <h1 className="text-2xl font-bold text-white">{heading}</h1>
        <p className="mt-1 text-sm text-slate-400" data-testid="result-count">
          {resultCountLabel({
            shown: result.products.length + result.bundles.length,
            more: Boolean(result.nextCursor),
            laterPage: Boolean(query.cursor),
          })}
        </p>
        {result.didYouMean && (
          <p className="mt-1 text-sm text-slate-300">
            No exact matches. Showing results for{' '}
            <Link
              to={suggestionPath({ q: result.didYouMean, category: query.category })}
              className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              “{result.didYouMean}”
            </Link>
            .
          </p>
        )}
        <div className="mt-2">
          <SaveSearch query={query} />
        </div>
        {empty ? (
          <NoResults suggestions={result.suggestions} />
        ) : (
          <div className="mt-4">
            {/* Cards title themselves with h3: the outline needs this level between them and h1. */}
            <h2 className="sr-only">Results</h2>
            <ProductGrid products={result.products} bundles={result.bundles} eager={4} />
          </div>
        )}
        <nav aria-label="Pages" className="mt-8 flex justify-center gap-3">
          {query.cursor && (
            <button
              type="button"
              onClick={() => history.back()}
              className="rounded-lg border border-ink-600 px-4 py-2 text-sm hover:bg-ink-800"
            >
              Previous page
            </button>
          )}
          {result.nextCursor && (
            <Link
              to={`/search?${nextParams.toString()}`}
              className="rounded-lg border border-ink-600 px-4 py-2 text-sm hover:bg-ink-800"
            >
              Next page
            </Link>
          )}
        </nav>
      </div>
    </div>
  );
}
