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
import { AppError } from '../../platform/errors.ts';
import { presentBundleCard, presentPrice, presentProductCard, presentVendor } from './presenter.ts';
import {
  bundleCardSelect,
  findVendorByUrl,
  productCardColumns,
  productCardFrom,
  rows,
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
  const result = await db.execute(sql`
    with v as (select id from vendors where lower(vendor_url) = lower(${vendorUrl}))
    select 'vendor' as row_type, (select id from v) as vendor_id, null::json as data
    union all
    select 'product', null, row_to_json(x) from (
      select ${productCardColumns(userId)} ${productCardFrom}
      where p.vendor_id = (select id from v) and p.is_active = ${isActive}
      order by p.sales_count desc, p.created_at desc limit 500) x
    union all
    select 'bundle', null, row_to_json(y) from (
      ${bundleCardSelect(userId)}
      where b.vendor_id = (select id from v) and b.is_active = ${isActive}
      order by b.created_at desc limit 100) y`);
  const all = result.rows as Array<{ row_type: string; vendor_id: string | null; data: unknown }>;
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
  const db = deps.database.db;
  const found = await rows<
    ProductCardRow & {
      description: string;
      images: string[];
      asset_classes: string[];
      prices: Array<{
        price_id: string;
        amount: number;
        currency: string;
        scheme: string;
        interval: string | null;
        trial_days: number | null;
      }>;
      bundles: Array<{
        id: string;
        slug: string;
        title: string;
        price_id: string;
        amount: number;
        currency: string;
        scheme: string;
        interval: string | null;
        trial_days: number | null;
      }>;
      prerequisites: Array<{ id: string; slug: string; title: string; purchased: boolean }>;
    }
  >(
    db,
    sql`select ${productCardColumns(userId)}, p.description, p.images, p.asset_classes,
      (select coalesce(json_agg(json_build_object('price_id', x.id, 'amount', x.amount, 'currency', x.currency,
              'scheme', x.scheme, 'interval', x.interval, 'trial_days', x.trial_days) order by x.position, x.amount), '[]')
         from prices x where x.product_id = p.id and x.is_active) as prices,
      (select coalesce(json_agg(json_build_object('id', b.id, 'slug', b.slug, 'title', b.title, 'price_id', bp.id,
              'amount', bp.amount, 'currency', bp.currency, 'scheme', bp.scheme, 'interval', bp.interval,
              'trial_days', bp.trial_days) order by b.created_at), '[]')
         from bundle_items bi join bundles b on b.id = bi.bundle_id and b.is_active join prices bp on bp.id = b.price_id
         where bi.product_id = p.id) as bundles,
      (select coalesce(json_agg(json_build_object('id', rq.id, 'slug', rq.slug, 'title', rq.title,
              'purchased', ${userId ? sql`exists (select 1 from ownerships o where o.user_id = ${userId} and o.product_id = rq.id and o.revoked_at is null)` : sql`false`}) order by rq.title), '[]')
         from product_prerequisites pp join products rq on rq.id = pp.requires_product_id
         where pp.product_id = p.id) as prerequisites
      ${productCardFrom}
      where p.id = ${id} and p.is_active`,
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
  const db = deps.database.db;
  const found = await rows<BundleCardRow & { description: string }>(
    db,
    sql`${bundleCardSelect(userId, sql`, b.description`)} where b.id = ${id} and b.is_active`,
  );
  const row = found[0];
  if (!row) throw new AppError('not_found', catalogMessages.bundleNotFound);
  const products = await rows<ProductCardRow>(
    db,
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
  const found = await rows<VendorRow>(
    deps.database.db,
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

/**
 * Full-text first (weighted title > tags > description, prefix on the last word, GIN index). Only when
 * that finds nothing does it fall back to trigram word similarity on titles, which forgives typos but
 * cannot use the cheap ranking, so it never runs for queries that already have answers.
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
  const run = (mode: Mode | null) => {
    const where = [...filters];
    let relevance = sql`p.sales_count desc, p.created_at desc, p.id`;
    if (tsq && mode === 'text') {
      const query = sql`to_tsquery('english', ${tsq})`;
      where.push(sql`p.search_vector @@ ${query}`);
      relevance = sql`(lower(p.title) = ${lq})::int desc, ts_rank(p.search_vector, ${query}) desc, p.sales_count desc, p.id`;
    }
    if (tsq && mode === 'fuzzy') {
      where.push(sql`${lq} <% lower(p.title)`);
      relevance = sql`word_similarity(${lq}, lower(p.title)) desc, p.sales_count desc, p.id`;
    }
    return rows<ProductCardRow>(
      db,
      sql`select ${productCardColumns(userId)} ${productCardFrom} where ${sql.join(where, sql` and `)}
          order by ${sorts(relevance)} limit ${limit + 1} offset ${offset}`,
    );
  };

  let mode: Mode = cursor.mode ?? 'text';
  let productRows: ProductCardRow[] = [];
  if (!wantBundlesOnly) {
    if (mode === 'fix') {
      didYouMean = await correctSpelling(deps, lq);
      tsq = didYouMean ? prefixQuery(didYouMean) : tsq;
    }
    productRows = await run(tsq ? (mode === 'fix' ? 'text' : mode) : null);
    if (tsq && mode === 'text' && offset === 0 && productRows.length === 0 && lq.length >= 3) {
      // Nothing matched as typed: try the closest known words, then similar titles.
      didYouMean = await correctSpelling(deps, lq);
      if (didYouMean) {
        mode = 'fix';
        tsq = prefixQuery(didYouMean);
        productRows = await run('text');
      }
      if (productRows.length === 0) {
        mode = 'fuzzy';
        didYouMean = null;
        tsq = prefixQuery(q);
        productRows = await run('fuzzy');
      }
    }
  }

  // Bundles: few per vendor, matched on title; shown on the first page (or paged when asked for alone).
  let bundleRows: BundleCardRow[] = [];
  const includeBundles = wantBundlesOnly || (!input.category && !input.kind && !input.platform);
  if (includeBundles && (offset === 0 || wantBundlesOnly)) {
    const bundleFilters: SQL[] = [sql`b.is_active`];
    if (q) {
      const like = '%' + lq.replace(/[%_\\]/g, '\\$&') + '%';
      bundleFilters.push(sql`(lower(b.title) like ${like} or ${lq} <% lower(b.title))`);
    }
    if (input.minPrice !== undefined) bundleFilters.push(sql`pr.amount >= ${input.minPrice}`);
    if (input.maxPrice !== undefined) bundleFilters.push(sql`pr.amount <= ${input.maxPrice}`);
    bundleRows = await rows<BundleCardRow>(
      db,
      sql`${bundleCardSelect(userId)} where ${sql.join(bundleFilters, sql` and `)}
          order by b.created_at desc, b.id limit ${wantBundlesOnly ? limit + 1 : 6} offset ${wantBundlesOnly ? offset : 0}`,
    );
  }
  const more = wantBundlesOnly ? bundleRows.length > limit : productRows.length > limit;
  const canPage = offset + limit <= MAX_OFFSET;
  return {
    products: productRows.slice(0, limit).map((r) => presentProductCard(r, deps.storage)),
    bundles: (wantBundlesOnly ? bundleRows.slice(0, limit) : bundleRows).map((r) =>
      presentBundleCard(r, deps.storage),
    ),
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
