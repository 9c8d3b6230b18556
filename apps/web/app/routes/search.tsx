import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import {
  catalogCategories,
  categoryLabels,
  endpoints,
  platformLabels,
  productKinds,
  searchSorts,
  tradingPlatforms,
} from '@tradeshelf/contract/client';
import type { ProductCard, SearchQuery } from '@tradeshelf/contract';
import { ProductGrid, productPath } from '../features/catalog/components.tsx';
import { NoResults } from '../features/catalog/no-results.tsx';
import { formatPrice } from '../lib/format.ts';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { breadcrumbs, originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import { useServices } from '../lib/services.tsx';
import type { Route } from './+types/search';

const sortLabels: Record<(typeof searchSorts)[number], string> = {
  relevance: 'Most relevant',
  newest: 'Newest',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  rating: 'Top rated',
  best_selling: 'Best selling',
};
const kindLabels: Record<(typeof productKinds)[number], string> = {
  indicator: 'Indicator',
  scanner: 'Scanner',
  alert: 'Alerts',
  community: 'Discord community',
  course: 'Course',
  app: 'App',
};

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
  const category = data?.query.category ? categoryLabels[data.query.category] : '';
  const title = q ? `“${q}”${category ? ` in ${category}` : ''}` : category || 'Search';
  const origin = originOf(matches);
  return seo({
    title,
    description: `Trading ${category ? category.toLowerCase() : 'tools'}${q ? ` matching “${q}”` : ''}: compare prices, platforms and ratings on Tradeshelf.`,
    path: location.pathname + location.search,
    origin,
    // Filtered and paged variants are not separate pages for search engines.
    noindex: Boolean(q || data?.query.cursor || data?.query.kind || data?.query.platform),
    jsonLd: [
      breadcrumbs(origin, [
        ['Home', '/'],
        [category || 'Search', `/search${category ? `?category=${data?.query.category}` : ''}`],
      ]),
    ],
  });
};

/** The search box, with the first matching products listed as you type. */
function SearchBox({ initial }: { initial: string }) {
  const { api } = useServices();
  const [value, setValue] = useState(initial);
  const [items, setItems] = useState<ProductCard[]>([]);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const onChange = (next: string) => {
    setValue(next);
    if (timer.current) clearTimeout(timer.current);
    if (next.trim().length < 2) {
      setItems([]);
      return;
    }
    // Debounced: one request per pause in typing, not per key.
    timer.current = setTimeout(() => {
      api
        .call(endpoints.search, { query: { q: next.trim(), limit: 6 } })
        .then((r) => {
          setItems(r.products);
          setOpen(true);
        })
        .catch(() => setItems([]));
    }, 200);
  };

  return (
    <div className="relative flex-1">
      <label htmlFor="search-q" className="sr-only">
        Search
      </label>
      <input
        id="search-q"
        name="q"
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        autoComplete="off"
        role="combobox"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        placeholder="Search indicators, scanners, communities…"
        className="w-full rounded-lg border border-ink-600 bg-ink-900 px-4 py-3 placeholder:text-slate-400"
      />
      {open && items.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          className="absolute z-20 mt-1 w-full overflow-hidden rounded-lg border border-ink-600 bg-ink-900 shadow-xl"
        >
          {items.map((p) => (
            <li key={p.id} role="option" aria-selected={false}>
              <Link
                to={productPath(p)}
                className="flex justify-between gap-3 px-4 py-2 text-sm hover:bg-ink-800 focus:bg-ink-800"
              >
                <span className="truncate text-white">{p.title}</span>
                <span className="shrink-0 text-slate-400">{formatPrice(p.price)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const selectClass = 'rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm';

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, result } = loaderData;
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
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="sr-only">Filters</legend>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Category
            <select
              name="category"
              defaultValue={query.category ?? ''}
              onChange={submitOnChange}
              className={selectClass}
            >
              <option value="">All categories</option>
              {catalogCategories.map((c) => (
                <option key={c} value={c}>
                  {categoryLabels[c]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Type
            <select
              name="kind"
              defaultValue={query.kind ?? ''}
              onChange={submitOnChange}
              className={selectClass}
            >
              <option value="">Any type</option>
              {productKinds.map((k) => (
                <option key={k} value={k}>
                  {kindLabels[k]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Platform
            <select
              name="platform"
              defaultValue={query.platform ?? ''}
              onChange={submitOnChange}
              className={selectClass}
            >
              <option value="">Any platform</option>
              {tradingPlatforms.map((p) => (
                <option key={p} value={p}>
                  {platformLabels[p]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Min price ($)
            <input
              name="min"
              type="number"
              min={0}
              inputMode="numeric"
              defaultValue={query.minPrice !== undefined ? query.minPrice / 100 : ''}
              className={`${selectClass} w-24`}
            />
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Max price ($)
            <input
              name="max"
              type="number"
              min={0}
              inputMode="numeric"
              defaultValue={query.maxPrice !== undefined ? query.maxPrice / 100 : ''}
              className={`${selectClass} w-24`}
            />
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-400">
            Sort
            <select
              name="sort"
              defaultValue={query.sort ?? 'relevance'}
              onChange={submitOnChange}
              className={selectClass}
            >
              {searchSorts.map((s) => (
                <option key={s} value={s}>
                  {sortLabels[s]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="rounded-lg border border-ink-600 px-3 py-2 text-sm font-medium hover:bg-ink-800"
          >
            Apply filters
          </button>
          {(query.category ||
            query.kind ||
            query.platform ||
            query.minPrice !== undefined ||
            query.maxPrice !== undefined) && (
            <Link
              to={query.q ? `/search?q=${encodeURIComponent(query.q)}` : '/search'}
              className="py-2 text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Clear filters
            </Link>
          )}
        </fieldset>
      </Form>
      <div
        aria-live="polite"
        aria-busy={busy}
        className={busy ? 'opacity-60 transition' : 'transition'}
      >
        <h1 className="text-2xl font-bold text-white">{heading}</h1>
        {result.didYouMean && (
          <p className="mt-1 text-sm text-slate-300">
            No exact matches. Showing results for{' '}
            <strong className="text-white">“{result.didYouMean}”</strong>.
          </p>
        )}
        {empty ? (
          <NoResults suggestions={result.suggestions} />
        ) : (
          <div className="mt-4">
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
