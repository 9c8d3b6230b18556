import { Link } from 'react-router';
import {
  catalogCategories,
  categoryLabels,
  platformLabels,
  productKinds,
  searchSorts,
  tradingPlatforms,
} from '@tradeshelf/contract/client';
import type { SearchQuery } from '@tradeshelf/contract';

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

const selectClass = 'rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm';

/**
 * The search page's filters: plain form fields of the page's GET form, so they work without
 * JavaScript; a change to a select submits at once (`submitOnChange`).
 */
export function SearchFilters({
  query,
  submitOnChange,
}: {
  query: SearchQuery & { minPrice?: number; maxPrice?: number };
  submitOnChange: () => void;
}) {
  return (
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
          defaultValue={query.minPrice != null ? query.minPrice / 100 : ''}
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
          defaultValue={query.maxPrice != null ? query.maxPrice / 100 : ''}
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
  );
}
