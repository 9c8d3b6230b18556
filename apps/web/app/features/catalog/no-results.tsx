import { Link } from 'react-router';
import {
  categoryLabels,
  groupThousands,
  SEARCH_SUGGESTION_COUNT_MAX,
} from '@tradeshelf/contract/client';
import type { SearchSuggestion } from '@tradeshelf/contract';

/** The search page for another query: its words and category only, as the API counted it. */
export function suggestionPath(s: Pick<SearchSuggestion, 'q' | 'category'>): string {
  const params = new URLSearchParams({ q: s.q });
  if (s.category) params.set('category', s.category);
  return `/search?${params}`;
}

const resultsLabel = (count: number) =>
  count >= SEARCH_SUGGESTION_COUNT_MAX
    ? `${groupThousands(SEARCH_SUGGESTION_COUNT_MAX)}+ results`
    : `${count} result${count === 1 ? '' : 's'}`;

/** A search that found nothing: the searches the API offers instead, as links, else general advice. */
export function NoResults({ suggestions }: { suggestions: SearchSuggestion[] }) {
  return (
    <div className="mt-10 rounded-2xl border border-dashed border-ink-600 p-10 text-center">
      <p className="text-lg font-semibold text-white">Nothing matches yet</p>
      {suggestions.length > 0 ? (
        <>
          <p className="mt-2 text-slate-400">These searches find something:</p>
          <ul aria-label="Other searches" className="mt-4 flex flex-wrap justify-center gap-2">
            {suggestions.map((s) => (
              <li key={suggestionPath(s)}>
                <Link
                  to={suggestionPath(s)}
                  className="inline-block rounded-full border border-ink-600 px-4 py-2 text-sm text-brand-400 underline-offset-2 hover:bg-ink-800 hover:underline"
                >
                  “{s.q}”{s.category ? ` in ${categoryLabels[s.category]}` : ''}{' '}
                  <span className="text-slate-400">({resultsLabel(s.count)})</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-2 text-slate-400">
          Try fewer words, another spelling, or remove a filter.
        </p>
      )}
      <Link
        to="/search"
        className="mt-4 inline-block text-brand-400 underline underline-offset-2 hover:decoration-2"
      >
        Browse everything
      </Link>
    </div>
  );
}
