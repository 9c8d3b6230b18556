import {
  catalogMessages,
  type BundleCard,
  type ProductCard,
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
): Promise<{
  products: ProductCard[];
  bundles: BundleCard[];
  nextCursor: string | null;
  didYouMean: string | null;
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
  let matches = cache.get(key);
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
 * Products as typed (ADR 015): indexed title/tag matches first, then products that only mention the words
 * in their description. When a word is unknown and nothing matched, the closest known words ("did you
 * mean"), then titles that look alike, so the costly steps never run for queries that have answers or
 * whose words all exist (an empty page there is down to the filters). Every step
 * returns the page's ids plus one, to tell whether another page follows.
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
  const [products, bundleIds] = await Promise.all([
    wantBundlesOnly
      ? { ids: [], mode: 'text' as Mode, didYouMean: null }
      : matchProducts(deps, input, lq, cursorMode ?? 'text', offset, cards, bundles),
    withBundles && !bundles ? matchBundles(deps, input, lq, wantBundlesOnly ? offset : 0) : [],
  ]);
  const more = wantBundlesOnly ? bundleIds.length > limit : products.ids.length > limit;
  const canPage = offset + limit <= MAX_OFFSET;
  return {
    productIds: products.ids.slice(0, limit),
    bundleIds: wantBundlesOnly ? bundleIds.slice(0, limit) : (bundles?.ids ?? bundleIds),
    nextCursor: more && canPage ? encodeCursor(products.mode, offset + limit) : null,
    didYouMean: products.didYouMean,
  };
}

async function matchProducts(
  deps: AppDeps,
  input: SearchInput,
  lq: string,
  mode: Mode,
  offset: number,
  cards: CardPrefetch,
  bundles: BundleMatch | null,
): Promise<{ ids: string[]; mode: Mode; didYouMean: string | null }> {
  const words = queryWords(lq);
  if (!words.length)
    return { ids: await browse(deps, input, offset, cards), mode, didYouMean: null };
  if (mode === 'fuzzy')
    return { ids: await similarTitles(deps, input, lq, offset), mode, didYouMean: null };
  // Spelling is fixed in the same round trip as resolving: always when paging corrected results, else
  // only on a first page whose words are not all in the catalogue.
  const fix = mode === 'fix' ? 'always' : offset === 0 && lq.length >= 3 ? 'ifUnknown' : 'never';
  const { terms, corrected } = await resolveTerms(deps, words, fix, bundles);
  if (mode === 'fix') {
    const found = await textMatches(
      deps,
      input,
      corrected?.terms ?? terms,
      corrected?.text ?? lq,
      offset,
      cards,
    );
    return { ids: found.ids, mode, didYouMean: corrected?.text ?? null };
  }
  const found = await textMatches(deps, input, terms, lq, offset, cards);
  if (found.ids.length || offset > 0 || found.known || lq.length < 3)
    return { ids: found.ids, mode, didYouMean: null };
  // Nothing matched and a word is unknown: the closest known words, then titles that look alike.
  if (corrected) {
    const fixed = await textMatches(deps, input, corrected.terms, corrected.text, 0, cards);
    if (fixed.ids.length) return { ids: fixed.ids, mode: 'fix', didYouMean: corrected.text };
  }
  return { ids: await similarTitles(deps, input, lq, 0), mode: 'fuzzy', didYouMean: null };
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
  if (input.minPrice !== undefined) filters.push(sql`pr.amount >= ${input.minPrice}`);
  if (input.maxPrice !== undefined) filters.push(sql`pr.amount <= ${input.maxPrice}`);
  return sql`select b.id, b.created_at from bundles b join prices pr on pr.id = b.price_id
      where ${sql.join(filters, sql` and `)}
      order by b.created_at desc, b.id limit ${alone ? input.limit + 1 : 6} offset ${offset}`;
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

/** A query word resolved against the index: its stem and the indexed lexemes it matches. */
interface Term {
  stem: string;
  /** Title/tag lexemes this word matches: its stem, and for the word being typed its completions. */
  lexemes: string[];
  /** Postings of those lexemes: how common the word is in titles and tags. */
  df: number;
  /** Some product has the word (or a completion) only in its summary or description. */
  inBody: boolean;
  prefix: boolean;
}

interface ResolvedRow {
  pass: number;
  n: number;
  word: string;
  stem: string | null;
  lexemes: string[];
  df: number;
  in_body: boolean;
}
const toTerms = (found: ResolvedRow[], last: number): Term[] =>
  found.flatMap((r) =>
    r.stem === null
      ? [] // a stop word: the index dropped it too
      : [{ stem: r.stem, lexemes: r.lexemes, df: r.df, inBody: r.in_body, prefix: r.n === last }],
  );

/**
 * Stems each word the way the index did ('english': stop words drop out) and looks its lexemes up; the
 * last word is still being typed, so it also matches the most common lexemes that start with it. With
 * `fix`, also the query with each word replaced by the closest title or tag word, resolved the same way
 * (null when that changes nothing). One round trip (`tradeshelf_resolve_terms`, ADR 016).
 */
async function resolveTerms(
  deps: AppDeps,
  words: string[],
  fix: 'never' | 'ifUnknown' | 'always',
  bundles: BundleMatch | null = null,
): Promise<{ terms: Term[]; corrected: { text: string; terms: Term[] } | null }> {
  const resolve = sql`select r.*, null::text as bundle_id from tradeshelf_resolve_terms(${sql.param(words)}::text[], ${PREFIX_EXPANSIONS}::int, ${FIX[fix]}::int) r`;
  // Bundles ride along as rows of their own (pass -1, numbered in their order): one round trip fewer.
  const found = await preparedRows<ResolvedRow & { bundle_id: string | null }>(
    deps.database,
    bundles
      ? sql`${resolve} union all
          select -1, (row_number() over (order by b.created_at desc, b.id))::int, null, null, null, null, null, b.id
          from (${bundles.query}) b`
      : resolve,
  );
  const ofPass = (pass: number) => found.filter((r) => r.pass === pass).sort((a, b) => a.n - b.n);
  if (bundles) bundles.ids = ofPass(-1).map((r) => r.bundle_id!);
  const fixed = ofPass(1);
  return {
    terms: toTerms(ofPass(0), words.length),
    corrected: fixed.length
      ? { text: fixed.map((r) => r.word).join(' '), terms: toTerms(fixed, fixed.length) }
      : null,
  };
}
const FIX = { never: 0, ifUnknown: 1, always: 2 } as const;

/** A tsquery from lexemes as they are (quoted: no second stemming, no operators from user text). */
const quoteLexeme = (l: string) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
function tsquery(terms: Term[], withStems: boolean): string {
  return terms
    .map((t) => {
      const alternatives = t.lexemes.map(quoteLexeme);
      if (withStems) alternatives.push(quoteLexeme(t.stem) + (t.prefix ? ':*' : ''));
      return `(${alternatives.join(' | ')})`;
    })
    .join(' & ');
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
  const known = terms.every((t) => t.lexemes.length > 0 || t.inBody);
  if (!known) return { ids: [], known };
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
 * Products whose title or tags hold every word, from the postings alone. Relevance: an exact title first,
 * then how many of the words are in the title, then sales. One index range per lexeme of the rarest
 * word, in the sort's order, checking the other words by primary key and stopping at `want` rows (for
 * several words ranked by relevance, only the all-in-title tier is read that way). When that walk is cut
 * short or the tier cannot fill the page, the whole intersection is ranked by hashing.
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
  const driver = terms.reduce((a, b) => (b.df < a.df ? b : a));
  const others = terms.filter((t) => t !== driver);
  const relevance = input.sort === 'relevance';
  const titleTier = relevance && others.length > 0;
  const capped = others.length > 0 && driver.df > WALK_CAP;
  const rest = (exactIds: string[], found: string[]) =>
    (titleTier || capped) && found.length < want
      ? intersect(deps, input, terms, want).then((all) => [...new Set([...exactIds, ...all])])
      : [...new Set([...exactIds, ...found])];
  // One or two words: static statements with cached plans (ADR 016), where the sort's index holds the
  // filters; more words, or another sort filtered, take the statement built here, planned per call.
  if (others.length <= 1 && (relevance || !hasFilters(input))) {
    const { exact, found } = await walkStatic(
      deps,
      staticWalk(input, driver, others[0] ?? null, text, want, capped),
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
               and o.lexeme = any(${sql.param(t.lexemes)}::text[])${titleTier ? sql` and o.in_title` : sql``} limit 1)`,
    ),
    sql``,
  );
  const columns = sql`s.product_id, s.in_title, s.sales_count, s.created_at, s.sort_amount, s.rating_average, s.rating_count`;
  const branches = driver.lexemes.map((lexeme) => {
    const where = sql`s.lexeme = ${lexeme}${inTitle}${filters}`;
    return capped
      ? sql`(select * from (select ${columns} from search_postings s where ${where} order by ${order} limit ${WALK_CAP}) s
             where true${alsoHas} order by ${order} limit ${want})`
      : sql`(select ${columns} from search_postings s where ${where}${alsoHas} order by ${order} limit ${want})`;
  });
  const outerOrder = relevance
    ? sql`bool_or(u.in_title) desc, u.sales_count desc, u.product_id`
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
 * The call of `tradeshelf_walk` for one word, or two (the other checked by key; for relevance, titles
 * holding both; a capped walk stops after {@link WALK_CAP} postings), in the same order as the statement
 * {@link strongMatches} builds.
 */
function staticWalk(
  input: SearchInput,
  driver: Term,
  other: Term | null,
  text: string,
  want: number,
  capped: boolean,
): SQL {
  return sql`tradeshelf_walk(${sql.param(driver.lexemes)}::text[], ${other ? sql.param(other.lexemes) : null}::text[],
    ${input.sort}::text, ${want}::int, ${capped ? WALK_CAP : null}::int, ${text}::text,
    ${input.category ?? null}::text, ${input.kind ?? null}::text, ${input.platform ?? null}::text,
    ${input.minPrice ?? null}::int, ${input.maxPrice ?? null}::int)`;
}

/**
 * Runs a static walk: exact titles (tier 0) and the walk (tier 1), in order. On a first page the cards
 * come in the same statement, in the walk's order (a left join: the matches are the same either way).
 */
async function walkStatic(
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

/** Every product holding all the words in title or tags, in the sort's order (relevance as above). */
async function intersect(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  want: number,
): Promise<string[]> {
  const [first, ...others] = terms;
  const names = others.map((_, i) => `t${i + 1}`);
  const perTerm = others.map(
    (
      t,
      i,
    ) => sql`${sql.raw(names[i]!)} as (select product_id, bool_or(in_title) as t from search_postings
      where lexeme = any(${sql.param(t.lexemes)}::text[]) group by product_id)`,
  );
  const order =
    input.sort === 'relevance'
      ? sql.raw(
          `${['d', ...names].map((n) => `${n}.t::int`).join(' + ')} desc, d.sales_count desc, d.product_id`,
        )
      : orderSql(input.sort, 'd', 'product_id');
  return ids(
    await rows<{ id: string }>(
      deps.database.db,
      sql`with d as (select s.product_id, bool_or(s.in_title) as t, max(s.sales_count) as sales_count,
                       max(s.created_at) as created_at, max(s.sort_amount) as sort_amount,
                       max(s.rating_average) as rating_average, max(s.rating_count) as rating_count
                     from search_postings s where s.lexeme = any(${sql.param(first!.lexemes)}::text[])${filterSql(input, 's')}
                     group by s.product_id),
            ${sql.join(perTerm, sql`, `)}
          select d.product_id as id from d ${sql.raw(names.map((n) => `join ${n} using (product_id)`).join(' '))}
          order by ${order} limit ${want}`,
    ),
  );
}

/**
 * Products that hold every word but not all in title or tags (the description mentions them), in the
 * sort's order; by popularity for relevance. Runs only when strong matches do not fill the page.
 */
async function weakMatches(
  deps: AppDeps,
  input: SearchInput,
  terms: Term[],
  indexed: boolean,
  want: number,
): Promise<string[]> {
  const notStrong = indexed
    ? sql` and not p.rank_vector @@ ${tsquery(terms, false)}::tsquery`
    : sql``;
  // The CTE is a fence: match through the text index first, never walk a sort index looking for rows.
  return ids(
    await rows<{ id: string }>(
      deps.database.db,
      sql`with p as materialized (
            select p.id, p.sales_count, p.created_at, p.sort_amount, p.rating_average, p.rating_count
            from products p
            where p.is_active and p.search_vector @@ ${tsquery(terms, true)}::tsquery${notStrong} ${filterSql(input, 'p')})
          select p.id from p order by ${orderSql(input.sort, 'p', 'id')} limit ${want}`,
    ),
  );
}
