// Use case: a vendor's published reviews (or one product's), paged, with the average and spread.
import {
  reviewMessages as m,
  reviewSorts,
  type Review,
  type ReviewSort,
  type ReviewSummary,
} from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import { preparedRows } from '../../db/prepared.ts';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries, vendorIdByUrl } from '../catalog/index.ts';
import { contactsOf } from '../users/index.ts';
import { presentReview, presentSummary } from './presenter.ts';
import { reviewColumns, type ReviewRow, type StatsRow } from './repository.ts';

const order: Record<ReviewSort, SQL> = {
  newest: sql`r.created_at desc, r.id desc`,
  highest: sql`r.rating desc, r.created_at desc, r.id desc`,
  lowest: sql`r.rating asc, r.created_at desc, r.id desc`,
};

/** Rows after the cursor's review `c`, in the sort's order. */
const after: Record<ReviewSort, SQL> = {
  newest: sql`(r.created_at, r.id) < (c.created_at, c.id)`,
  highest: sql`(r.rating, r.created_at, r.id) < (c.rating, c.created_at, c.id)`,
  lowest: sql`(r.rating > c.rating or (r.rating = c.rating and (r.created_at, r.id) < (c.created_at, c.id)))`,
};

/**
 * A cursor names the sort and the last review shown; the next page starts after that review's
 * place, read from the row itself, so no client-made time or rating reaches the SQL.
 */
const REVIEW_CURSOR = cursorKind(
  'reviews',
  [cursorField.oneOf(...reviewSorts), cursorField.id],
  m.badCursor,
);

/** The cursor's review, when the cursor was made for this sort. */
function cursorOf(deps: AppDeps, sort: ReviewSort, cursor: string): string {
  const [madeFor, id] = deps.cursors.decode(REVIEW_CURSOR, cursor);
  if (madeFor !== sort)
    throw new AppError('validation_failed', m.badCursor, { cursor: m.badCursor });
  return id;
}

export async function listReviews(
  deps: AppDeps,
  query: {
    vendorUrl?: string | undefined;
    productId?: string | undefined;
    sort: ReviewSort;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ reviews: Review[]; summary: ReviewSummary; nextCursor: string | null }> {
  const db = deps.database.db;
  if (!query.vendorUrl && !query.productId)
    throw new AppError('validation_failed', m.scopeRequired, { vendorUrl: m.scopeRequired });
  const vendorId = query.vendorUrl ? await vendorIdByUrl(db, query.vendorUrl) : null;
  if (query.vendorUrl && !vendorId) throw new AppError('not_found', m.vendorNotFound);
  const cursorId = query.cursor ? cursorOf(deps, query.sort, query.cursor) : null;
  // A product alone needs no vendor lookup: the product page asks beside the product's own read.
  const scope = sql.join(
    [
      ...(vendorId ? [sql`r.vendor_id = ${vendorId}`] : []),
      ...(query.productId ? [sql`r.product_id = ${query.productId}`] : []),
    ],
    sql` and `,
  );
  const [found, stats] = await Promise.all([
    preparedRows<ReviewRow>(
      deps.database,
      sql`select ${reviewColumns} from reviews r
        ${cursorId ? sql`join reviews c on c.id = ${cursorId}` : sql``}
        where ${scope} and r.hidden_reason is null
          ${cursorId ? sql`and ${after[query.sort]}` : sql``}
        order by ${order[query.sort]} limit ${query.limit + 1}`,
    ),
    preparedRows<StatsRow>(
      deps.database,
      sql`select coalesce(sum(count_1), 0)::int as c1, coalesce(sum(count_2), 0)::int as c2,
          coalesce(sum(count_3), 0)::int as c3, coalesce(sum(count_4), 0)::int as c4,
          coalesce(sum(count_5), 0)::int as c5
        from review_stats r where ${scope}`,
    ),
  ]);
  const { page, nextCursor } = pageOf(found, query.limit, (last) =>
    deps.cursors.encode(REVIEW_CURSOR, [query.sort, last.id]),
  );
  const [people, products] = await Promise.all([
    contactsOf(db, [...new Set(page.map((r) => r.user_id))]),
    itemSummaries(
      db,
      page.map((r) => ({ type: 'product' as const, id: r.product_id })),
    ),
  ]);
  return {
    reviews: page.map((r) => {
      const item = products.get(`product:${r.product_id}`);
      return presentReview(
        r,
        { id: r.product_id, slug: item?.slug ?? '', title: item?.title ?? '' },
        people.get(r.user_id)?.username ?? null,
      );
    }),
    summary: presentSummary(stats[0] ?? { c1: 0, c2: 0, c3: 0, c4: 0, c5: 0 }),
    nextCursor,
  };
}
