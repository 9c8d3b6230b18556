import {
  catalogCategories,
  catalogMessages,
  SEARCH_SUGGESTION_COUNT_MAX,
  SEARCH_SUGGESTIONS_MAX,
  type BundleCard,
  type CatalogCategory,
  type ProductCard,
  type SearchSuggestion,
  type searchQuery,
} from '@tradeshelf/contract';
import type { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { AppError } from '../../platform/errors.ts';
import { TtlCache } from '../../platform/ttl-cache.ts';
import { presentBundleCard, presentProductCard } from './presenter.ts';
import {
  bundleCardSelect,
  productCardColumns,
  productCardFrom,
  rows,
  type BundleCardRow,
  type ProductCardRow,
} from './repository.ts';

type SearchInput = z.output<typeof searchQuery>;
type Sort = SearchInput['sort'];

/** The words of a query: letters and digits, lower case, at most 8. */
function queryWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

const MAX_OFFSET = 1000;
/** How many indexed completions a word being typed expands to (the most common ones). */
const PREFIX_EXPANSIONS = 10;
type Mode = 'text' | 'fix' | 'fuzzy';
const MODES: readonly string[] = ['text', 'fix', 'fuzzy'];

/** Cursor: the match mode and the offset, so page 2 continues the same kind of result set. */
function decodeCursor(cursor: string | undefined): { mode: Mode | null; offset: number } {
  if (!cursor) return { mode: null, offset: 0 };
  const [mode, raw] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const offset = Number(raw);
  if (
    !mode ||
    !MODES.includes(mode) ||
    !Number.isInteger(offset) ||
    offset < 0 ||
    offset > MAX_OFFSET
  ) {
    throw new AppError('validation_failed', catalogMessages.badCursor, {
      cursor: catalogMessages.badCursor,
    });
  }
  return { mode: mode as Mode, offset };
}
const encodeCursor = (mode: Mode, n: number) =>
  Buffer.from(`${mode}:${n}`, 'utf8').toString('base64url');

/** What a search found, as ids: shared by every buyer, so it can be cached; cards are loaded per request. */
interface SearchMatches {
  productIds: string[];
  bundleIds: string[];
  nextCursor: string | null;
  didYouMean: string | null;
  suggestions: SearchSuggestion[];
}

// One cache per app instance (tests build many apps). Bounded: 5000 queries of ~50 ids.
const caches = new WeakMap<AppDeps, TtlCache<SearchMatches>>();
function searchCache(deps: AppDeps): TtlCache<SearchMatches> {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new TtlCache(deps.config.SEARCH_CACHE_SECONDS * 1000, 5000);
    caches.set(deps, cache);
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
  let matches = options.fresh ? undefined : cache.get(key);
  if (!matches) {
    matches = await findMatches(deps, input, lq, cards);
    cache.set(key, matches);
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

/** Product card rows already read for this request (for this buyer), by product id. */
interface CardPrefetch {
  userId: string | null;
  rows: Map<string, ProductCardRow>;
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
  const { mode: cursorMode, offset } = decodeCursor(input.cursor);
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
    nextCursor: more && canPage ? encodeCursor(products.mode, offset + limit) : null,
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

/** Bundles: few per vendor, matched on title; on the first page, or paged when asked for alone. */
async function matchBundles(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  offset: number,
): Promise<string[]> {
  return ids(await preparedRows<{ id: string }>(deps.database, bundleMatchSql(input, lq, offset)));
}

/** Bundle ids (and their dates, for ordering) matching the query: at most 6 beside products. */
function bundleMatchSql(input: SearchInput, lq: string, offset: number): SQL {
  const alone = input.category === 'bundles';
  const filters: SQL[] = [sql`b.is_active`];
  if (lq) {
    const like = '%' + lq.replace(/[%_\\]/g, '\\$&') + '%';
    filters.push(sql`(lower(b.title) like ${like} or ${lq} <% lower(b.title))`);
  }
  filters.push(...bundlePriceSql(input));
  return sql`select b.id, b.created_at from bundles b join prices pr on pr.id = b.price_id
      where ${sql.join(filters, sql` and `)}
      order by b.created_at desc, b.id limit ${alone ? input.limit + 1 : 6} offset ${offset}`;
}

function bundlePriceSql(input: SearchInput): SQL[] {
  const out: SQL[] = [];
  if (input.minPrice !== undefined) out.push(sql`pr.amount >= ${input.minPrice}`);
  if (input.maxPrice !== undefined) out.push(sql`pr.amount <= ${input.maxPrice}`);
  return out;
}

/**
 * Bundles a query that asks for bundles finds: each other word in the bundle's title or summary, or in
 * the title, tags or fields of a product it holds ("mt4 bundle"). Bundles are few: a scan is cheap.
 */
function bundleTermsSql(input: SearchInput, terms: Term[]): SQL {
  const filters: SQL[] = [sql`b.is_active`, ...bundlePriceSql(input)];
  for (const t of terms) {
    const text = termQuery(t, true);
    const inItems = sql`exists (select 1 from bundle_items bi join search_postings s on s.product_id = bi.product_id
      where bi.bundle_id = b.id and s.lexeme = any(${sql.param(t.lexemes)}::text[]))`;
    filters.push(
      text
        ? sql`(to_tsvector('english', b.title || ' ' || b.summary) @@ ${text}::tsquery or ${inItems})`
        : inItems,
    );
  }
  return sql`select b.id from bundles b join prices pr on pr.id = b.price_id
      where ${sql.join(filters, sql` and `)} order by b.created_at desc, b.id limit ${input.limit}`;
}

/** Bundles matched in the same statement as the words: the query, and the ids it found. */
interface BundleMatch {
  query: SQL;
  ids: string[];
}

/** The filters every step applies, on a products row (`p`) or a posting (`s`), which share the names. */
function filterSql(input: SearchInput, alias: 'p' | 's'): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const out: SQL[] = [];
  if (input.category && input.category !== 'bundles')
    out.push(sql`${col('category')} = ${input.category}`);
  if (input.kind) out.push(sql`${col('kind')} = ${input.kind}`);
  if (input.platform) out.push(sql`${input.platform} = any(${col('platforms')})`);
  if (input.minPrice !== undefined) out.push(sql`${col('sort_amount')} >= ${input.minPrice}`);
  if (input.maxPrice !== undefined) out.push(sql`${col('sort_amount')} <= ${input.maxPrice}`);
  return out.length ? sql` and ${sql.join(out, sql` and `)}` : sql``;
}

/** ORDER BY for a sort. Without words to rank by, "relevance" means popularity. */
function orderSql(sort: Sort, alias: string, id: string): SQL {
  const a = alias;
  const order: Record<Sort, string> = {
    relevance: `${a}.sales_count desc, ${a}.created_at desc, ${a}.${id}`,
    newest: `${a}.created_at desc, ${a}.${id}`,
    price_asc: `${a}.sort_amount, ${a}.${id}`,
    price_desc: `${a}.sort_amount desc, ${a}.${id} desc`,
    rating: `${a}.rating_average desc, ${a}.rating_count desc, ${a}.${id}`,
    best_selling: `${a}.sales_count desc, ${a}.${id}`,
  };
  return sql.raw(order[sort]);
}

const ids = (found: Array<{ id: string }>) => found.map((r) => r.id);

/** No words: the catalogue (or a category of it) in the chosen order, straight off a browse index. */
async function browse(
  deps: AppDeps,
  input: SearchInput,
  offset: number,
  cards: CardPrefetch,
): Promise<string[]> {
  // The page's cards in the same statement: the page is exactly these rows.
  const found = await preparedRows<ProductCardRow>(
    deps.database,
    sql`select ${productCardColumns(cards.userId)} ${productCardFrom} where p.is_active ${filterSql(input, 'p')}
        order by ${orderSql(input.sort, 'p', 'id')} limit ${input.limit + 1} offset ${offset}`,
  );
  for (const r of found) cards.rows.set(r.id, r);
  return ids(found);
}

/** The last resort: titles that contain something like the query (trigram word similarity). */
async function similarTitles(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  offset: number,
): Promise<string[]> {
  const order =
    input.sort === 'relevance'
      ? sql`word_similarity(${lq}, lower(p.title)) desc, p.sales_count desc, p.id`
      : orderSql(input.sort, 'p', 'id');
  return ids(
    await rows<{ id: string }>(
      deps.database.db,
      sql`with p as materialized (
            select p.id, p.title, p.sales_count, p.created_at, p.sort_amount, p.rating_average, p.rating_count
            from products p where p.is_active and ${lq} <% lower(p.title) ${filterSql(input, 'p')})
          select p.id from p order by ${order} limit ${input.limit + 1} offset ${offset}`,
    ),
  );
}

/**
 * One term of a query, resolved against the index. A word is one term; a synonym may stand for several
 * ('fvg': fair, value, gap), each matched by any of its lexemes.
 */
interface Term {
  stem: string;
  /** Lexemes some product has in its title, tags or fields: for the word being typed, its completions too. */
  lexemes: string[];
  /** Postings of those lexemes: how common the term is. */
  df: number;
  /** Some product has the term (or a completion) only in its summary or description. */
  inBody: boolean;
  prefix: boolean;
  /** A synonym's text lexemes, as listed (null for other words: their stem is matched). */
  bodyLexemes: string[] | null;
  /** The structured fields a synonym stands for ('@kind:indicator', '@platform:mt5', '@bundle'). */
  fields: string[];
}

/** A query as searched: its words (known phrases joined) and their terms (none for a stop word). */
interface ResolvedQuery {
  text: string;
  words: Array<{ text: string; terms: Term[] }>;
  terms: Term[];
}

const isField = (lexeme: string) => lexeme.startsWith('@');
/** A term that a title can hold: not only structured fields. */
const inTitles = (t: Term) => t.lexemes.some((l) => !isField(l));
const asksForBundles = (t: Term) => t.fields.includes('@bundle');

interface ResolvedRow {
  pass: number;
  n: number;
  term: number;
  word: string;
  stem: string | null;
  lexemes: string[];
  df: number;
  in_body: boolean;
  body_lexemes: string[] | null;
  fields: string[];
}

function toQuery(found: ResolvedRow[]): ResolvedQuery {
  const last = Math.max(0, ...found.map((r) => r.n));
  const words: ResolvedQuery['words'] = [];
  for (const r of found) {
    if (r.term === 1) words.push({ text: r.word, terms: [] });
    if (r.stem === null) continue; // a stop word: the index dropped it too
    // A synonym's terms that no product tells apart ('fvg' when no title says "fair value gap") are one.
    const same = (t: Term) => t.lexemes.join(' ') === r.lexemes.join(' ') && r.lexemes.length > 0;
    if (r.term > 1 && words.at(-1)!.terms.some(same)) continue;
    words.at(-1)!.terms.push({
      stem: r.stem,
      lexemes: r.lexemes,
      df: r.df,
      inBody: r.in_body,
      prefix: r.body_lexemes === null && r.n === last,
      bodyLexemes: r.body_lexemes,
      fields: r.fields,
    });
  }
  return {
    text: words.map((w) => w.text).join(' '),
    words,
    terms: words.flatMap((w) => w.terms),
  };
}

/**
 * Resolves the words the way the index did: known phrases joined ('metatrader 5'), synonyms expanded to
 * their lexemes (ADR 023), other words stemmed ('english': stop words drop out); the last word is still
 * being typed, so it also matches the most common lexemes that start with it. With `fix`, also the query
 * with each word found nowhere replaced by the closest known word, resolved the same way (null when
 * that changes nothing). One round trip (`tradeshelf_resolve_query`, ADR 016).
 */
async function resolveQuery(
  deps: AppDeps,
  words: string[],
  fix: 'never' | 'ifUnknown' | 'always',
  bundles: BundleMatch | null = null,
): Promise<{ typed: ResolvedQuery; corrected: ResolvedQuery | null }> {
  const resolve = sql`select r.*, null::text as bundle_id from tradeshelf_resolve_query(${sql.param(words)}::text[], ${PREFIX_EXPANSIONS}::int, ${FIX[fix]}::int) r`;
  // Bundles ride along as rows of their own (pass -1, numbered in their order): one round trip fewer.
  const found = await preparedRows<ResolvedRow & { bundle_id: string | null }>(
    deps.database,
    bundles
      ? sql`${resolve} union all
          select -1, (row_number() over (order by b.created_at desc, b.id))::int, null, null, null, null, null, null, null, null, b.id
          from (${bundles.query}) b`
      : resolve,
  );
  const ofPass = (pass: number) =>
    found.filter((r) => r.pass === pass).sort((a, b) => a.n - b.n || a.term - b.term);
  if (bundles) bundles.ids = ofPass(-1).map((r) => r.bundle_id!);
  const fixed = ofPass(1);
  return { typed: toQuery(ofPass(0)), corrected: fixed.length ? toQuery(fixed) : null };
}
const FIX = { never: 0, ifUnknown: 1, always: 2 } as const;

/** A tsquery from lexemes as they are (quoted: no second stemming, no operators from user text). */
const quoteLexeme = (l: string) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
/**
 * One term's text alternatives as a tsquery: its title/tag lexemes, and with `withStems` what a
 * description may hold (the stem, as a prefix for the word being typed; a synonym's listed words).
 * Null when the term is only structured fields.
 */
function termQuery(t: Term, withStems: boolean, titleOnly = false): string | null {
  const weight = titleOnly ? 'A' : '';
  const alternatives = new Set(
    t.lexemes.filter((l) => !isField(l)).map((l) => quoteLexeme(l) + (weight && `:${weight}`)),
  );
  if (withStems && t.bodyLexemes)
    for (const l of t.bodyLexemes) alternatives.add(quoteLexeme(l) + (weight && `:${weight}`));
  else if (withStems)
    alternatives.add(quoteLexeme(t.stem) + (t.prefix ? `:*${weight}` : weight && `:${weight}`));
  return alternatives.size ? `(${[...alternatives].join(' | ')})` : null;
}

/** The products row (`p`) has one of the fields a term stands for; null when it stands for none. */
function fieldsSql(t: Term): SQL | null {
  const parts = t.fields.flatMap((f) => {
    const [field, value] = f.slice(1).split(':');
    if (field === 'kind') return [sql`p.kind = ${value}`];
    if (field === 'platform') return [sql`${value} = any(p.platforms)`];
    if (field === 'asset') return [sql`${value} = any(p.asset_classes)`];
    return [];
  });
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : null;
}

/**
 * Word matches for one page: [offset, offset + limit] of strong matches followed by weak ones. `known`:
 * every word is in the catalogue somewhere, so an empty page is down to the filters, not to spelling.
 */
async function textMatches(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  text: string,
  offset: number,
  cards: CardPrefetch,
): Promise<{ ids: string[]; known: boolean }> {
  if (!terms.length) return { ids: [], known: false }; // only stop words
  const indexed = terms.every((t) => t.lexemes.length > 0);
  // A synonym is a word traders use even when no product has it yet ("nt8"): no spelling fix for it.
  const known = terms.every((t) => t.lexemes.length > 0 || t.inBody || t.bodyLexemes !== null);
  // A term no product has anywhere: nothing to match.
  if (terms.some((t) => !t.lexemes.length && !t.inBody)) return { ids: [], known };
  const want = offset + input.limit + 1;
  const strong = indexed
    ? await strongMatches(deps, input, terms, text, want, offset === 0 ? cards : null)
    : [];
  // A weak match needs some word that a product has only in its description.
  if (strong.length >= want || !terms.some((t) => t.inBody))
    return { ids: strong.slice(offset, want), known };
  const weak = await weakMatches(deps, input, terms, indexed, want - strong.length);
  return { ids: [...strong, ...weak].slice(offset, want), known };
}

/** Driver postings a multi-word walk reads before it gives up on finding a page of products with them all. */
const WALK_CAP = 200;

/**
 * Products whose title, tags or fields hold every term, from the postings alone. Relevance: an exact
 * title first, then how many terms are in the title, then how many in title or tags (rather than only
 * a field), then sales. One index range per lexeme of the driving term, in the sort's order, checking
 * the others by primary key and stopping at `want` rows. When two or more terms can be in a title and
 * the sort is relevance, that walk reads only the tier with all of them in the title. When the walk is
 * cut short or the tier cannot fill the page, the whole intersection is ranked by hashing.
 * Planned per call, never as a generic plan: row counts per word differ by orders of magnitude.
 */
async function strongMatches(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  text: string,
  want: number,
  cards: CardPrefetch | null,
): Promise<string[]> {
  const db = deps.database.db;
  const relevance = input.sort === 'relevance';
  const titled = terms.filter(inTitles);
  // The rarest term drives, except that relevance ranks by title words first: a term that only a field
  // can hold ("mt5") never drives it, so its walk is already in relevance order.
  const pool = relevance && titled.length ? titled : terms;
  const driver = pool.reduce((a, b) => (b.df < a.df ? b : a));
  const others = terms.filter((t) => t !== driver);
  const titleTier = relevance && titled.length > 1;
  const capped = others.length > 0 && driver.df > WALK_CAP;
  const rest = (exactIds: string[], found: string[]) =>
    (titleTier || capped) && found.length < want
      ? intersect(deps, input, terms, want).then((all) => [...new Set([...exactIds, ...all])])
      : [...new Set([...exactIds, ...found])];
  // One or two terms: static statements with cached plans (ADR 016), where the sort's index holds the
  // filters; more terms, or another sort filtered, take the statement built here, planned per call.
  if (others.length <= 1 && (relevance || !hasFilters(input))) {
    const { exact, found } = await runWalk(
      deps,
      walkCall(input, driver, others[0] ?? null, titleTier, text, want, capped),
      cards,
    );
    return rest(exact, found);
  }
  const filters = filterSql(input, 's');
  const order = relevance
    ? sql.raw(
        titleTier
          ? 's.sales_count desc, s.product_id'
          : 's.in_title desc, s.sales_count desc, s.product_id',
      )
    : orderSql(input.sort, 's', 'product_id');
  const inTitle = titleTier ? sql` and s.in_title` : sql``;
  // A scalar subquery, not EXISTS: the planner turns EXISTS into a hash semi-join that reads every
  // posting of the other word (5 000 for a common one, ~2 ms) instead of probing the walked rows' keys.
  const alsoHas = sql.join(
    others.map(
      (t) =>
        sql` and (select true from search_postings o where o.product_id = s.product_id
               and o.lexeme = any(${sql.param(t.lexemes)}::text[])${titleTier && inTitles(t) ? sql` and o.in_title` : sql``} limit 1)`,
    ),
    sql``,
  );
  const columns = sql`s.product_id, s.in_title, s.sales_count, s.created_at, s.sort_amount, s.rating_average, s.rating_count`;
  const branches = driver.lexemes.map((lexeme) => {
    const where = sql`s.lexeme = ${lexeme}${inTitle}${filters}`;
    const textual = sql.raw(isField(lexeme) ? 'false' : 'true');
    return capped
      ? sql`(select *, ${textual} as textual from (select ${columns} from search_postings s where ${where} order by ${order} limit ${WALK_CAP}) s
             where true${alsoHas} order by ${order} limit ${want})`
      : sql`(select ${columns}, ${textual} as textual from search_postings s where ${where}${alsoHas} order by ${order} limit ${want})`;
  });
  const outerOrder = relevance
    ? sql`bool_or(u.in_title) desc, bool_or(u.textual) desc, u.sales_count desc, u.product_id`
    : orderSql(input.sort, 'u', 'product_id');
  // An exact title (relevance only) rides in the same statement, ahead of the walk: one round trip.
  const exact = relevance
    ? sql`(select p.id, 0 as tier, 0::bigint as n from products p
           where lower(p.title) = ${text} and p.is_active ${filterSql(input, 'p')}
           order by p.sales_count desc, p.id limit 5) union all `
    : sql``;
  const walked = await rows<{ id: string; tier: number }>(
    db,
    sql`select x.id, x.tier from (${exact}
          select u.product_id, 1, row_number() over (order by ${outerOrder}) from (${sql.join(branches, sql` union all `)}) u
          group by u.product_id, u.sales_count, u.created_at, u.sort_amount, u.rating_average, u.rating_count
        ) x (id, tier, n) order by x.tier, x.n limit ${want + 5}`,
  );
  return rest(
    walked.filter((r) => r.tier === 0).map((r) => r.id),
    walked.filter((r) => r.tier === 1).map((r) => r.id),
  );
}

const hasFilters = (input: SearchInput) =>
  Boolean(input.category ?? input.kind ?? input.platform) ||
  input.minPrice !== undefined ||
  input.maxPrice !== undefined;

/**
 * The call of `tradeshelf_walk` for one term, or two (the other checked by key; `titleOnly`: titles
 * holding both; a capped walk stops after {@link WALK_CAP} postings), in the same order as the statement
 * {@link strongMatches} builds.
 */
function walkCall(
  input: SearchInput,
  driver: Term,
  other: Term | null,
  titleOnly: boolean,
  text: string,
  want: number,
  capped: boolean,
): SQL {
  return sql`tradeshelf_walk(${sql.param(driver.lexemes)}::text[], ${other ? sql.param(other.lexemes) : null}::text[],
    ${titleOnly}::boolean, ${input.sort}::text, ${want}::int, ${capped ? WALK_CAP : null}::int, ${text}::text,
    ${input.category ?? null}::text, ${input.kind ?? null}::text, ${input.platform ?? null}::text,
    ${input.minPrice ?? null}::int, ${input.maxPrice ?? null}::int)`;
}

/**
 * Runs a walk: exact titles (tier 0) and the walk (tier 1), in order. On a first page the cards come in
 * the same statement, in the walk's order (a left join: the matches are the same either way).
 */
async function runWalk(
  deps: AppDeps,
  walk: SQL,
  cards: CardPrefetch | null,
): Promise<{ exact: string[]; found: string[] }> {
  type Walked = { match_id: string; tier: number };
  let found: Walked[];
  if (cards) {
    const withCards = await preparedRows<Walked & (ProductCardRow | { id: null })>(
      deps.database,
      sql`select w.product_id as match_id, w.tier, c.* from ${walk} with ordinality w (product_id, tier, n, ord)
          left join lateral (
            select ${productCardColumns(cards.userId)} ${productCardFrom} where p.id = w.product_id and p.is_active
          ) c on true
          order by w.ord`,
    );
    for (const r of withCards) if (r.id !== null) cards.rows.set(r.id, r);
    found = withCards;
  } else {
    found = await preparedRows<Walked>(
      deps.database,
      sql`select product_id as match_id, tier from ${walk}`,
    );
  }
  return {
    exact: found.filter((r) => r.tier === 0).map((r) => r.match_id),
    found: found.filter((r) => r.tier === 1).map((r) => r.match_id),
  };
}

/**
 * Every product holding all the terms in title, tags or fields, in the sort's order (relevance as
 * above: terms in the title, then terms in title or tags, then sales): `tradeshelf_intersect`, driven by
 * the rarest term, the others probed rarest first.
 */
async function intersect(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  want: number,
): Promise<string[]> {
  const [driver, ...others] = [...terms].sort((a, b) => a.df - b.df);
  const probed = [0, 1, 2, 3].map((i) => others[i]?.lexemes ?? null);
  const rest = others.slice(4).map((t) => t.lexemes.join(' '));
  return ids(
    await preparedRows<{ id: string }>(
      deps.database,
      sql`select product_id as id from tradeshelf_intersect(${sql.param(driver!.lexemes)}::text[],
        ${sql.join(
          probed.map((l) => sql`${l ? sql.param(l) : null}::text[]`),
          sql`, `,
        )}, ${rest.length ? sql.param(rest) : null}::text[], ${input.sort}::text, ${want}::int,
        ${input.category ?? null}::text, ${input.kind ?? null}::text, ${input.platform ?? null}::text,
        ${input.minPrice ?? null}::int, ${input.maxPrice ?? null}::int)`,
    ),
  );
}

/**
 * Products that hold every term but not all in title, tags or fields (the description mentions them),
 * in the sort's order; for relevance, rare terms in the title first, then in the tags, then popularity
 * ("trading journal": the journal app before trading courses that mention journals). Runs only when
 * strong matches do not fill the page. A term that stands for a field is held by the field or the
 * description; at least one term must be only words, for the text index to find the candidates.
 */
async function weakMatches(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  indexed: boolean,
  want: number,
): Promise<string[]> {
  const plain = terms.filter((t) => !fieldsSql(t));
  if (!plain.length) return [];
  const has = (t: Term, vector: 'search_vector' | 'rank_vector') => {
    const text = termQuery(t, vector === 'search_vector');
    const fields = fieldsSql(t);
    const parts = [
      ...(text ? [sql`p.${sql.raw(vector)} @@ ${text}::tsquery`] : []),
      ...(fields ? [fields] : []),
    ];
    return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
  };
  const matchAll = sql`p.search_vector @@ ${plain.map((t) => termQuery(t, true)).join(' & ')}::tsquery${sql.join(
    terms.filter((t) => fieldsSql(t)).map((t) => sql` and ${has(t, 'search_vector')}`),
    sql``,
  )}`;
  const notStrong = indexed
    ? sql` and not (${sql.join(
        terms.map((t) => has(t, 'rank_vector')),
        sql` and `,
      )})`
    : sql``;
  // Each term in the title (or title and tags) counts 1 / (1 + its postings): rarer words weigh more.
  const score = (titleOnly: boolean) =>
    sql.join(
      terms.map((t) => {
        const q = termQuery(t, true, titleOnly);
        return q ? sql`(p.rank_vector @@ ${q}::tsquery)::int * ${1 / (1 + t.df)}::float8` : sql`0`;
      }),
      sql` + `,
    );
  const order =
    input.sort === 'relevance'
      ? sql`p.in_title desc, p.in_tags desc, ${orderSql(input.sort, 'p', 'id')}`
      : orderSql(input.sort, 'p', 'id');
  // The CTE is a fence: match through the text index first, never walk a sort index looking for rows.
  return ids(
    await rows<{ id: string }>(
      deps.database.db,
      sql`with p as materialized (
            select p.id, p.sales_count, p.created_at, p.sort_amount, p.rating_average, p.rating_count,
              ${score(true)} as in_title, ${score(false)} as in_tags
            from products p
            where p.is_active and ${matchAll}${notStrong} ${filterSql(input, 'p')})
          select p.id from p order by ${order} limit ${want}`,
    ),
  );
}

/** Postings of its rarest term a suggestion's count reads at most: words that rarely meet stay cheap. */
const SUGGESTION_SCAN = 200;

/**
 * Other searches for a first page that found nothing, counted on the postings up to
 * SEARCH_SUGGESTION_COUNT_MAX among the first {@link SUGGESTION_SCAN} candidates (title, tag and field
 * matches: `tradeshelf_count_matches`): the query with one word dropped, in the same category; and when
 * filters emptied the page, the query in each category without them. Most matches first. One statement
 * of cached plans, run only for empty pages.
 */
async function suggestAlternatives(
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
