// Products a search finds: strong matches (walk, intersect), weak ones, browse, look-alike titles.
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { productCardColumns, productCardFrom, rows, type ProductCardRow } from './repository.ts';
import {
  fieldsSql,
  inTitles,
  isField,
  termQuery,
  type SearchInput,
  type Sort,
  type Term,
} from './search-query.ts';

/** Product card rows already read for this request (for this buyer), by product id. */
export interface CardPrefetch {
  userId: string | null;
  rows: Map<string, ProductCardRow>;
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

export const ids = (found: Array<{ id: string }>) => found.map((r) => r.id);

/** No words: the catalogue (or a category of it) in the chosen order, straight off a browse index. */
export async function browse(
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
export async function similarTitles(
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
 * Word matches for one page: [offset, offset + limit] of strong matches followed by weak ones. `known`:
 * every word is in the catalogue somewhere, so an empty page is down to the filters, not to spelling.
 */
export async function textMatches(
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

export const hasFilters = (input: SearchInput) =>
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
