// Other searches offered when a first page finds nothing, each with how many products it finds.
import {
  catalogCategories,
  SEARCH_SUGGESTION_COUNT_MAX,
  SEARCH_SUGGESTIONS_MAX,
  type CatalogCategory,
  type SearchSuggestion,
} from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { hasFilters } from './search-matches.ts';
import { asksForBundles, type ResolvedQuery, type SearchInput, type Term } from './search-query.ts';

/** Postings of its rarest term a suggestion's count reads at most: words that rarely meet stay cheap. */
const SUGGESTION_SCAN = 200;

/**
 * Other searches for a first page that found nothing, counted on the postings up to
 * SEARCH_SUGGESTION_COUNT_MAX among the first {@link SUGGESTION_SCAN} candidates (title, tag and field
 * matches: `tradeshelf_count_matches`): the query with one word dropped, in the same category; and when
 * filters emptied the page, the query in each category without them. Most matches first. One statement
 * of cached plans, run only for empty pages.
 */
export async function suggestAlternatives(
  deps: AppDeps,
  input: SearchInput,
  query: ResolvedQuery,
): Promise<SearchSuggestion[]> {
  const category = input.category && input.category !== 'bundles' ? input.category : null;
  const alternatives: Array<{ q: string; terms: Term[]; category: CatalogCategory | null }> = [];
  const meaningful = query.words.filter((w) => w.terms.length);
  if (meaningful.length > 1)
    for (const dropped of meaningful) {
      const kept = query.words.filter((w) => w !== dropped);
      alternatives.push({
        q: kept.map((w) => w.text).join(' '),
        terms: kept.flatMap((w) => w.terms),
        category,
      });
    }
  const everyCategory = hasFilters(input);
  const usable = (terms: Term[]) =>
    terms.length > 0 && terms.every((t) => t.lexemes.length) && !terms.some(asksForBundles);
  const counts: SQL[] = [];
  const count = (i: number, terms: Term[], cats: readonly string[] | null) => {
    const driver = terms.reduce((x, y) => (y.df < x.df ? y : x));
    const others = terms.filter((t) => t !== driver).map((t) => t.lexemes.join(' '));
    return sql`select ${i}::int as i, c.category, c.n from tradeshelf_count_matches(${sql.param(driver.lexemes)}::text[],
      ${sql.param(others)}::text[], ${cats ? sql.param(cats) : null}::text[], ${SEARCH_SUGGESTION_COUNT_MAX}::int,
      ${SUGGESTION_SCAN}::int) c`;
  };
  for (const [i, a] of alternatives.entries())
    if (usable(a.terms)) counts.push(count(i, a.terms, a.category ? [a.category] : null));
  if (everyCategory && usable(query.terms))
    counts.push(
      count(
        -1,
        query.terms,
        catalogCategories.filter((c) => c !== 'bundles'),
      ),
    );
  if (!counts.length) return [];
  const found = await preparedRows<{ i: number; category: CatalogCategory | null; n: number }>(
    deps.database,
    sql.join(counts, sql` union all `),
  );
  const offered = new Map<string, SearchSuggestion>();
  // Most matches first; on a tie, the query in another category (every word kept) first.
  for (const r of found.filter((r) => r.n > 0).sort((a, b) => b.n - a.n || a.i - b.i)) {
    const q = r.i < 0 ? query.text : alternatives[r.i]!.q;
    const key = `${q}\n${r.category ?? ''}`; // a word typed twice drops to the same query
    if (!offered.has(key))
      offered.set(key, { q, ...(r.category ? { category: r.category } : {}), count: r.n });
  }
  return [...offered.values()].slice(0, SEARCH_SUGGESTIONS_MAX);
}
