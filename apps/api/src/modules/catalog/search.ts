// The search use case: input, cursor, the cache of matching ids, and the page they make.
import {
  catalogMessages,
  type BundleCard,
  type ProductCard,
  type SearchSuggestion,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { cursorField, cursorKind } from '../../platform/cursor.ts';
import { onContentChange } from '../../platform/content-changes.ts';
import { TtlCache } from '../../platform/ttl-cache.ts';
import { presentBundleCard, presentProductCard } from './presenter.ts';
import {
  bundleCardSelect,
  productCardColumns,
  productCardFrom,
  type BundleCardRow,
  type ProductCardRow,
} from './repository.ts';
import { bundleMatchSql, bundleTermsSql, matchBundles } from './search-bundles.ts';
import { browse, ids, similarTitles, textMatches, type CardPrefetch } from './search-matches.ts';
import {
  asksForBundles,
  queryWords,
  resolveQuery,
  type BundleMatch,
  type ResolvedQuery,
  type SearchInput,
  type Term,
} from './search-query.ts';
import { suggestAlternatives } from './search-suggestions.ts';

const MAX_OFFSET = 1000;

type Mode = 'text' | 'fix' | 'fuzzy';

/** Cursor: the match mode and the offset, so page 2 continues the same kind of result set. */
const SEARCH_CURSOR = cursorKind(
  'search',
  [cursorField.oneOf<Mode>('text', 'fix', 'fuzzy'), cursorField.count(MAX_OFFSET)],
  catalogMessages.badCursor,
);

/** What a search found, as ids: shared by every buyer, so it can be cached; cards are loaded per request. */
interface SearchMatches {
  productIds: string[];
  bundleIds: string[];
  nextCursor: string | null;
  didYouMean: string | null;
  suggestions: SearchSuggestion[];
}

// One cache per app instance (tests build many apps). Bounded: 5000 queries of ~50 ids. `generation`
// counts content changes: matches found while one happened are not kept.
interface SearchCache {
  entries: TtlCache<SearchMatches>;
  generation: number;
}
const caches = new WeakMap<AppDeps, SearchCache>();
function searchCache(deps: AppDeps): SearchCache {
  let cache = caches.get(deps);
  if (!cache) {
    const created: SearchCache = {
      entries: new TtlCache(deps.config.SEARCH_CACHE_SECONDS * 1000, 5000),
      generation: 0,
    };
    // An edited product may now match queries it did not, or stop matching: forget every query.
    onContentChange(deps, () => {
      created.generation++;
      created.entries.clear();
    });
    caches.set(deps, created);
    cache = created;
  }
  return cache;
}

/**
 * Search: the matching ids come from the cache when the same query ran within SEARCH_CACHE_SECONDS,
 * else from {@link findMatches}; the cards (with this buyer's `purchased` flags and current prices) are
 * always read fresh, by primary key, and a product deactivated meanwhile drops out.
 */
export async function search(
  deps: AppDeps,
  userId: string | null,
  input: SearchInput,
  /** `fresh`: match now, not from the cache (alerts must see a product published a moment ago). */
  options: { fresh?: boolean } = {},
): Promise<{
  products: ProductCard[];
  bundles: BundleCard[];
  nextCursor: string | null;
  didYouMean: string | null;
  suggestions: SearchSuggestion[];
}> {
  const cache = searchCache(deps);
  // The query as matched and cached: the contract trimmed it; case and runs of spaces do not matter.
  const lq = input.q.toLowerCase().replace(/\s+/g, ' ');
  const key = JSON.stringify([
    lq,
    input.category ?? null,
    input.kind ?? null,
    input.platform ?? null,
    input.minPrice ?? null,
    input.maxPrice ?? null,
    input.sort,
    input.limit,
    input.cursor ?? null,
  ]);
  // A first page's cards come with its matches when a static walk or a category browse finds them (one
  // round trip fewer); the rest, and cached matches, are read here by id.
  const cards: CardPrefetch = { userId, rows: new Map() };
  let matches = options.fresh ? undefined : cache.entries.get(key);
  if (!matches) {
    const generation = cache.generation;
    matches = await findMatches(deps, input, lq, cards);
    if (generation === cache.generation) cache.entries.set(key, matches);
  }
  const missing = matches.productIds.filter((id) => !cards.rows.has(id));
  const [productRows, bundleRows] = await Promise.all([
    missing.length
      ? preparedRows<ProductCardRow>(
          deps.database,
          sql`select ${productCardColumns(userId)} ${productCardFrom}
              where p.id = any(${sql.param(missing)}::text[]) and p.is_active`,
        )
      : [],
    matches.bundleIds.length
      ? preparedRows<BundleCardRow>(
          deps.database,
          sql`${bundleCardSelect(userId)} where b.id = any(${sql.param(matches.bundleIds)}::text[]) and b.is_active`,
        )
      : [],
  ]);
  for (const r of productRows) cards.rows.set(r.id, r);
  return {
    products: matches.productIds.flatMap((id) => {
      const r = cards.rows.get(id);
      return r ? [presentProductCard(r, deps.storage)] : [];
    }),
    bundles: inOrder(matches.bundleIds, bundleRows).map((r) => presentBundleCard(r, deps.storage)),
    nextCursor: matches.nextCursor,
    didYouMean: matches.didYouMean,
    suggestions: matches.suggestions,
  };
}

function inOrder<T extends { id: string }>(ids: string[], found: T[]): T[] {
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Products as typed (ADRs 015, 023): title, tag and field matches first, then products that only mention
 * the words in their description. When a word is found nowhere and nothing matched, the closest known
 * words ("did you mean"), then titles that look alike, so the costly steps never run for queries that
 * have answers or whose words all exist (an empty page there is down to the filters). Every step returns
 * the page's ids plus one, to tell whether another page follows. A first page that finds nothing offers
 * other searches that do find something.
 */
async function findMatches(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  cards: CardPrefetch,
): Promise<SearchMatches> {
  const [cursorMode, offset]: [Mode | null, number] = input.cursor
    ? deps.cursors.decode(SEARCH_CURSOR, input.cursor)
    : [null, 0];
  const limit = input.limit;
  const wantBundlesOnly = input.category === 'bundles';
  const withBundles =
    wantBundlesOnly || (offset === 0 && !input.category && !input.kind && !input.platform);
  // A first page with words matches its bundles in the statement that resolves the words; otherwise
  // the page's products and bundles are independent reads, so in parallel.
  const bundles: BundleMatch | null =
    withBundles && !wantBundlesOnly && queryWords(lq).length && !cursorMode
      ? { query: bundleMatchSql(input, lq, 0), ids: [] }
      : null;
  const none: ProductMatches = { ids: [], mode: 'text', didYouMean: null, query: null };
  const [products, bundleIds] = await Promise.all([
    wantBundlesOnly
      ? none
      : matchProducts(deps, input, lq, cursorMode ?? 'text', offset, cards, bundles),
    withBundles && !bundles ? matchBundles(deps, input, lq, wantBundlesOnly ? offset : 0) : [],
  ]);
  // A word such as "bundle" asks for bundles: those holding the other words, first page only.
  const bundlesAsked = products.bundleTerms
    ? ids(
        await preparedRows<{ id: string }>(
          deps.database,
          bundleTermsSql(input, products.bundleTerms),
        ),
      )
    : null;
  const foundBundles = bundlesAsked ?? (wantBundlesOnly ? bundleIds : (bundles?.ids ?? bundleIds));
  const more = wantBundlesOnly ? bundleIds.length > limit : products.ids.length > limit;
  const canPage = offset + limit <= MAX_OFFSET && !bundlesAsked;
  const nothing = products.ids.length === 0 && foundBundles.length === 0;
  return {
    productIds: products.ids.slice(0, limit),
    bundleIds: foundBundles.slice(0, limit),
    nextCursor:
      more && canPage ? deps.cursors.encode(SEARCH_CURSOR, [products.mode, offset + limit]) : null,
    didYouMean: products.didYouMean,
    suggestions:
      nothing && offset === 0 && products.query
        ? await suggestAlternatives(deps, input, products.query)
        : [],
  };
}

/** A page of products, how they were found, and the query as searched (null without words). */
interface ProductMatches {
  ids: string[];
  mode: Mode;
  didYouMean: string | null;
  query: ResolvedQuery | null;
  /** The query asked for bundles ("momentum bundle"): the other words' terms. */
  bundleTerms?: Term[];
}

async function matchProducts(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  mode: Mode,
  offset: number,
  cards: CardPrefetch,
  bundles: BundleMatch | null,
): Promise<ProductMatches> {
  const words = queryWords(lq);
  if (!words.length)
    return { ids: await browse(deps, input, offset, cards), mode, didYouMean: null, query: null };
  if (mode === 'fuzzy')
    return {
      ids: await similarTitles(deps, input, lq, offset),
      mode,
      didYouMean: null,
      query: null,
    };
  // Spelling is fixed in the same round trip as resolving: always when paging corrected results, else
  // only on a first page whose words are not all in the catalogue.
  const fix = mode === 'fix' ? 'always' : offset === 0 && lq.length >= 3 ? 'ifUnknown' : 'never';
  const { typed, corrected } = await resolveQuery(deps, words, fix, bundles);
  const asked = (query: ResolvedQuery, didYouMean: string | null): ProductMatches | null =>
    query.terms.some(asksForBundles)
      ? {
          ids: [],
          mode,
          didYouMean,
          query,
          bundleTerms: query.terms.filter((t) => !asksForBundles(t)),
        }
      : null;
  if (mode === 'fix') {
    const query = corrected ?? typed;
    const found = await textMatches(deps, input, query.terms, query.text, offset, cards);
    return { ids: found.ids, mode, didYouMean: corrected?.text ?? null, query };
  }
  const bundlesOnly = asked(typed, null);
  if (bundlesOnly) return bundlesOnly;
  const found = await textMatches(deps, input, typed.terms, lq, offset, cards);
  if (found.ids.length || offset > 0 || found.known || lq.length < 3)
    return { ids: found.ids, mode, didYouMean: null, query: typed };
  // Nothing matched and a word is found nowhere: the closest known words, then titles that look alike.
  if (corrected) {
    const fixedBundles = asked(corrected, corrected.text);
    if (fixedBundles) return fixedBundles;
    const fixed = await textMatches(deps, input, corrected.terms, corrected.text, 0, cards);
    if (fixed.ids.length)
      return { ids: fixed.ids, mode: 'fix', didYouMean: corrected.text, query: corrected };
  }
  return {
    ids: await similarTitles(deps, input, lq, 0),
    mode: 'fuzzy',
    didYouMean: null,
    query: corrected ?? typed,
  };
}
