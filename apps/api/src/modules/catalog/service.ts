import {
  catalogMessages,
  type BundleCard,
  type BundleDetails,
  type ProductCard,
  type ProductDetails,
  type searchQuery,
  type VendorProfile,
} from '@tradeshelf/contract';
import type { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';
import { AppError } from '../../platform/errors.ts';
import { TtlCache } from '../../platform/ttl-cache.ts';
import { presentBundleCard, presentPrice, presentProductCard, presentVendor } from './presenter.ts';
import {
  bundleCardSelect,
  findVendorByUrl,
  productCardColumns,
  productCardFrom,
  productDetailsQuery,
  sellerListQuery,
  rows,
  type ProductDetailsRow,
  type BundleCardRow,
  type ProductCardRow,
  type VendorRow,
} from './repository.ts';

const unknownVendor = () => new AppError('not_found', catalogMessages.vendorNotFound);
const unknownProduct = () => new AppError('not_found', catalogMessages.productNotFound);

export async function vendorProfile(deps: AppDeps, vendorUrl: string): Promise<VendorProfile> {
  const row = await findVendorByUrl(deps.database.db, vendorUrl);
  if (!row) throw unknownVendor();
  return presentVendor(row, deps.storage);
}

export async function sellerProducts(
  deps: AppDeps,
  userId: string | null,
  vendorUrl: string,
  isActive: boolean,
): Promise<{ products: ProductCard[]; bundles: BundleCard[] }> {
  const db = deps.database.db;
  if (!isActive) {
    // Inactive listings are the vendor's own drafts: only the owner sees them.
    const vendor = await findVendorByUrl(db, vendorUrl);
    if (!vendor) throw unknownVendor();
    if (vendor.user_id !== userId) throw new AppError('forbidden', catalogMessages.ownListingsOnly);
  }
  // Both lists in one round trip; an unknown vendor yields no rows and a null marker.
  const all = await preparedRows<{ row_type: string; vendor_id: string | null; data: unknown }>(
    deps.database,
    sellerListQuery(userId, vendorUrl, isActive),
  );
  if (!all[0]?.vendor_id) throw unknownVendor();
  return {
    products: all
      .filter((r) => r.row_type === 'product')
      .map((r) => presentProductCard(r.data as ProductCardRow, deps.storage)),
    bundles: all
      .filter((r) => r.row_type === 'bundle')
      .map((r) => presentBundleCard(r.data as BundleCardRow, deps.storage)),
  };
}

export async function productDetails(
  deps: AppDeps,
  userId: string | null,
  id: string,
): Promise<ProductDetails> {
  const found = await preparedRows<ProductDetailsRow>(
    deps.database,
    productDetailsQuery(userId, id),
  );
  const row = found[0];
  if (!row) throw unknownProduct();
  const card = presentProductCard(row, deps.storage);
  return {
    ...card,
    description: row.description,
    images: row.images.map((k) => (k.startsWith('/') ? k : deps.storage.publicUrl(k))),
    assetClasses: row.asset_classes as ProductDetails['assetClasses'],
    prices: row.prices.map(presentPrice),
    bundles: row.bundles.map((b) => ({
      id: b.id,
      slug: b.slug,
      title: b.title,
      priceId: b.price_id,
      price: presentPrice(b),
    })),
    prerequisites: row.prerequisites,
    salesCount: row.sales_count,
  };
}

export async function bundleDetails(
  deps: AppDeps,
  userId: string | null,
  id: string,
): Promise<BundleDetails> {
  const found = await preparedRows<BundleCardRow & { description: string }>(
    deps.database,
    sql`${bundleCardSelect(userId, sql`, b.description`)} where b.id = ${id} and b.is_active`,
  );
  const row = found[0];
  if (!row) throw new AppError('not_found', catalogMessages.bundleNotFound);
  const products = await preparedRows<ProductCardRow>(
    deps.database,
    sql`select ${productCardColumns(userId)} ${productCardFrom}
        join bundle_items bi on bi.product_id = p.id and bi.bundle_id = ${id}
        order by p.title`,
  );
  return {
    ...presentBundleCard(row, deps.storage),
    description: row.description,
    products: products.map((r) => presentProductCard(r, deps.storage)),
  };
}

export async function topVendors(deps: AppDeps, limit: number): Promise<VendorProfile[]> {
  const found = await preparedRows<VendorRow>(
    deps.database,
    sql`select v.*, s.product_count from vendors v
        join (select vendor_id, count(*)::int as product_count, sum(sales_count) as sales
              from products where is_active group by vendor_id) s on s.vendor_id = v.id
        order by v.verified desc, s.sales desc, v.id limit ${limit}`,
  );
  return found.map((r) => presentVendor(r, deps.storage));
}

export async function missingPrerequisites(deps: AppDeps, userId: string, productId: string) {
  const db = deps.database.db;
  const product = await rows<{ id: string }>(
    db,
    sql`select id from products where id = ${productId} and is_active`,
  );
  if (!product[0]) throw unknownProduct();
  const missing = await rows<{ id: string; slug: string; title: string }>(
    db,
    sql`select rq.id, rq.slug, rq.title
        from product_prerequisites pp join products rq on rq.id = pp.requires_product_id
        where pp.product_id = ${productId}
          and not exists (select 1 from ownerships o where o.user_id = ${userId} and o.product_id = rq.id and o.revoked_at is null)
          and not exists (select 1 from ownerships o join bundle_items bi on bi.bundle_id = o.bundle_id
                          where o.user_id = ${userId} and bi.product_id = rq.id and o.revoked_at is null)
        order by rq.title`,
  );
  return { productId, satisfied: missing.length === 0, missing };
}

/** Splits free text into safe lexemes for to_tsquery: AND of terms, the last one as a prefix. */
export function prefixQuery(q: string): string | null {
  const terms = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  if (!terms.length) return null;
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

const MAX_OFFSET = 1000;
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

type SearchInput = z.output<typeof searchQuery>;

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
  const key = JSON.stringify([
    input.q.trim().toLowerCase().replace(/\s+/g, ' '),
    input.category ?? null,
    input.kind ?? null,
    input.platform ?? null,
    input.minPrice ?? null,
    input.maxPrice ?? null,
    input.sort,
    input.limit,
    input.cursor ?? null,
  ]);
  let matches = cache.get(key);
  if (!matches) {
    matches = await findMatches(deps, input);
    cache.set(key, matches);
  }
  const [productRows, bundleRows] = await Promise.all([
    matches.productIds.length
      ? preparedRows<ProductCardRow>(
          deps.database,
          sql`select ${productCardColumns(userId)} ${productCardFrom}
              where p.id = any(${sql.param(matches.productIds)}::text[]) and p.is_active`,
        )
      : [],
    matches.bundleIds.length
      ? preparedRows<BundleCardRow>(
          deps.database,
          sql`${bundleCardSelect(userId)} where b.id = any(${sql.param(matches.bundleIds)}::text[]) and b.is_active`,
        )
      : [],
  ]);
  return {
    products: inOrder(matches.productIds, productRows).map((r) =>
      presentProductCard(r, deps.storage),
    ),
    bundles: inOrder(matches.bundleIds, bundleRows).map((r) => presentBundleCard(r, deps.storage)),
    nextCursor: matches.nextCursor,
    didYouMean: matches.didYouMean,
  };
}

function inOrder<T extends { id: string }>(ids: string[], found: T[]): T[] {
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Full-text first (weighted title > tags > description, prefix on the last word, GIN index), ranked on
 * the small title+tags vector. Only when that finds nothing does it try spelling corrections, then
 * trigram word similarity on titles, so the costly steps never run for queries that already have answers.
 */
async function findMatches(deps: AppDeps, input: SearchInput): Promise<SearchMatches> {
  const db = deps.database.db;
  const cursor = decodeCursor(input.cursor);
  const offset = cursor.offset;
  const q = input.q.trim();
  const lq = q.toLowerCase();
  let tsq = prefixQuery(q);
  let didYouMean: string | null = null;
  const wantBundlesOnly = input.category === 'bundles';

  const filters: SQL[] = [sql`p.is_active`];
  if (input.category && !wantBundlesOnly) filters.push(sql`p.category = ${input.category}`);
  if (input.kind) filters.push(sql`p.kind = ${input.kind}`);
  if (input.platform) filters.push(sql`${input.platform} = any(p.platforms)`);
  if (input.minPrice !== undefined) filters.push(sql`p.sort_amount >= ${input.minPrice}`);
  if (input.maxPrice !== undefined) filters.push(sql`p.sort_amount <= ${input.maxPrice}`);

  const sorts = (relevance: SQL) =>
    ({
      relevance,
      newest: sql`p.created_at desc, p.id`,
      price_asc: sql`p.sort_amount asc, p.id`,
      price_desc: sql`p.sort_amount desc, p.id`,
      rating: sql`p.rating_average desc, p.rating_count desc, p.id`,
      best_selling: sql`p.sales_count desc, p.id`,
    })[input.sort];

  const limit = input.limit;
  const run = async (mode: Mode | null) => {
    const where = [...filters];
    let relevance = sql`p.sales_count desc, p.created_at desc, p.id`;
    if (tsq && mode === 'text') {
      const query = sql`to_tsquery('english', ${tsq})`;
      where.push(sql`p.search_vector @@ ${query}`);
      relevance = sql`(lower(p.title) = ${lq})::int desc, ts_rank(p.rank_vector, ${query}) desc, p.sales_count desc, p.id`;
    }
    if (tsq && mode === 'fuzzy') {
      where.push(sql`${lq} <% lower(p.title)`);
      relevance = sql`word_similarity(${lq}, lower(p.title)) desc, p.sales_count desc, p.id`;
    }
    // With a text condition and an indexed sort, match through the text index first (the CTE is a
    // fence): otherwise, for a rare or misspelt word, the planner walks the sort index and filters
    // the whole catalogue looking for LIMIT rows that do not exist (~100 ms at 100k products).
    const found = await rows<{ id: string }>(
      db,
      mode && input.sort !== 'relevance'
        ? sql`with p as materialized (
                select p.id, p.title, p.rank_vector, p.sales_count, p.created_at, p.sort_amount,
                  p.rating_average, p.rating_count
                from products p where ${sql.join(where, sql` and `)})
              select p.id from p order by ${sorts(relevance)} limit ${limit + 1} offset ${offset}`
        : sql`select p.id from products p where ${sql.join(where, sql` and `)}
              order by ${sorts(relevance)} limit ${limit + 1} offset ${offset}`,
    );
    return found.map((r) => r.id);
  };

  let mode: Mode = cursor.mode ?? 'text';
  let productIds: string[] = [];
  if (!wantBundlesOnly) {
    if (mode === 'fix') {
      didYouMean = await correctSpelling(deps, lq);
      tsq = didYouMean ? prefixQuery(didYouMean) : tsq;
    }
    productIds = await run(tsq ? (mode === 'fix' ? 'text' : mode) : null);
    if (tsq && mode === 'text' && offset === 0 && productIds.length === 0 && lq.length >= 3) {
      // Nothing matched as typed: try the closest known words, then similar titles.
      didYouMean = await correctSpelling(deps, lq);
      if (didYouMean) {
        mode = 'fix';
        tsq = prefixQuery(didYouMean);
        productIds = await run('text');
      }
      if (productIds.length === 0) {
        mode = 'fuzzy';
        didYouMean = null;
        tsq = prefixQuery(q);
        productIds = await run('fuzzy');
      }
    }
  }

  // Bundles: few per vendor, matched on title; shown on the first page (or paged when asked for alone).
  let bundleIds: string[] = [];
  const includeBundles = wantBundlesOnly || (!input.category && !input.kind && !input.platform);
  if (includeBundles && (offset === 0 || wantBundlesOnly)) {
    const bundleFilters: SQL[] = [sql`b.is_active`];
    if (q) {
      const like = '%' + lq.replace(/[%_\\]/g, '\\$&') + '%';
      bundleFilters.push(sql`(lower(b.title) like ${like} or ${lq} <% lower(b.title))`);
    }
    if (input.minPrice !== undefined) bundleFilters.push(sql`pr.amount >= ${input.minPrice}`);
    if (input.maxPrice !== undefined) bundleFilters.push(sql`pr.amount <= ${input.maxPrice}`);
    const found = await rows<{ id: string }>(
      db,
      sql`select b.id from bundles b join prices pr on pr.id = b.price_id
          where ${sql.join(bundleFilters, sql` and `)}
          order by b.created_at desc, b.id limit ${wantBundlesOnly ? limit + 1 : 6} offset ${wantBundlesOnly ? offset : 0}`,
    );
    bundleIds = found.map((r) => r.id);
  }
  const more = wantBundlesOnly ? bundleIds.length > limit : productIds.length > limit;
  const canPage = offset + limit <= MAX_OFFSET;
  return {
    productIds: productIds.slice(0, limit),
    bundleIds: wantBundlesOnly ? bundleIds.slice(0, limit) : bundleIds,
    nextCursor: more && canPage ? encodeCursor(mode, offset + limit) : null,
    didYouMean,
  };
}

/** Replaces each unknown word with the closest known title or tag word; null when nothing changes. */
async function correctSpelling(deps: AppDeps, lq: string): Promise<string | null> {
  const words = lq
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  if (!words.length) return null;
  const found = await rows<{ word: string; term: string | null }>(
    deps.database.db,
    sql`select w.word, (select t.term from search_terms t where t.term % w.word
                        order by similarity(t.term, w.word) desc, t.frequency desc limit 1) as term
        from unnest(${sql.param(words)}::text[]) with ordinality as w(word, n)
        order by w.n`,
  );
  const corrected = found.map((r) => (r.word.length >= 3 && r.term ? r.term : r.word));
  const text = corrected.join(' ');
  return text !== words.join(' ') ? text : null;
}

/** Rebuilds the spelling vocabulary from active titles and tags (after seeding or catalogue edits). */
export async function refreshSearchTerms(db: AppDeps['database']['db']): Promise<void> {
  await db.execute(sql`delete from search_terms`);
  await db.execute(sql`insert into search_terms (term, frequency)
    select w, count(*)::int from products p,
      lateral unnest(regexp_split_to_array(lower(p.title || ' ' || tradeshelf_immutable_join(p.tags)), '[^a-z0-9]+')) w
    where p.is_active and length(w) >= 3 and w !~ '^[0-9]+$' group by w`);
}
