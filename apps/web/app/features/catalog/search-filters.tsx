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
import { SelectOptions } from '../../components/select-field.tsx';

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

/** One labelled select of the filter form; `empty` names the choice that sets no filter. */
function FilterSelect({
  label,
  name,
  value,
  empty,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: string | undefined;
  empty?: string;
  options: Array<[string, string]>;
  onChange: () => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs text-slate-400">
      {label}
      <select name={name} defaultValue={value ?? ''} onChange={onChange} className={selectClass}>
        <SelectOptions options={options} empty={empty} />
      </select>
    </label>
  );
}

/** The selects that narrow the results, each with its "no filter" choice. */
const narrowing: Array<{
  label: string;
  name: 'category' | 'kind' | 'platform';
  empty: string;
  options: Array<[string, string]>;
}> = [
  {
    label: 'Category',
    name: 'category',
    empty: 'All categories',
    options: catalogCategories.map((c) => [c, categoryLabels[c]]),
  },
  {
    label: 'Type',
    name: 'kind',
    empty: 'Any type',
    options: productKinds.map((k) => [k, kindLabels[k]]),
  },
  {
    label: 'Platform',
    name: 'platform',
    empty: 'Any platform',
    options: tradingPlatforms.map((p) => [p, platformLabels[p]]),
  },
];

/** A whole-dollar price bound; the query holds cents. */
function PriceInput({ label, name, cents }: { label: string; name: string; cents?: number }) {
  return (
    <label className="flex flex-col gap-1 text-xs text-slate-400">
      {label}
      <input
        name={name}
        type="number"
        min={0}
        inputMode="numeric"
        defaultValue={cents != null ? cents / 100 : ''}
        className={`${selectClass} w-24`}
      />
    </label>
  );
}

/** How many filters narrow the results (the sort orders them, it does not narrow). */
export const activeFilterCount = (query: SearchQuery) =>
  [query.category, query.kind, query.platform, query.minPrice, query.maxPrice].filter(
    (v) => v !== undefined,
  ).length;

/**
 * The search page's filters: plain form fields of the page's GET form, so they work without
 * JavaScript; a change to a select submits at once (`submitOnChange`). On a phone they fold behind a
 * "Filters" disclosure (native, so keyboard and script-free) so results start on the first screen;
 * wider screens show them open, where the browser lets the page style a closed disclosure's content.
 */
export function SearchFilters({
  query,
  submitOnChange,
}: {
  query: SearchQuery & { minPrice?: number; maxPrice?: number };
  submitOnChange: () => void;
}) {
  const active = activeFilterCount(query);
  return (
    <details className="group supports-[selector(::details-content)]:md:[&::details-content]:[content-visibility:visible] supports-[selector(::details-content)]:md:[&>summary]:hidden">
      <summary className="inline-flex cursor-pointer list-none items-center gap-2 rounded-lg border border-ink-600 px-3 py-2 text-sm font-medium hover:bg-ink-800 group-open:mb-3 [&::-webkit-details-marker]:hidden">
        Filters
        {active > 0 && (
          <span className="rounded-full bg-brand-500 px-2 text-xs font-semibold text-ink-950">
            {active} active
          </span>
        )}
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-4 w-4 fill-current text-slate-400 group-open:rotate-180"
        >
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className="sr-only">Filters</legend>
        {narrowing.map(({ label, name, empty, options }) => (
          <FilterSelect
            key={name}
            label={label}
            name={name}
            value={query[name]}
            empty={empty}
            options={options}
            onChange={submitOnChange}
          />
        ))}
        <PriceInput label="Min price ($)" name="min" cents={query.minPrice} />
        <PriceInput label="Max price ($)" name="max" cents={query.maxPrice} />
        <FilterSelect
          label="Sort"
          name="sort"
          value={query.sort ?? 'relevance'}
          options={searchSorts.map((s) => [s, sortLabels[s]])}
          onChange={submitOnChange}
        />
        <button
          type="submit"
          className="rounded-lg border border-ink-600 px-3 py-2 text-sm font-medium hover:bg-ink-800"
        >
          Apply filters
        </button>
        {active > 0 && (
          <Link
            to={query.q ? `/search?q=${encodeURIComponent(query.q)}` : '/search'}
            className="py-2 text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Clear filters
          </Link>
        )}
      </fieldset>
    </details>
  );
}
