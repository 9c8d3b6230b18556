// Use case (vendor): its reviews across its products, newest first (replies are reply.ts's).
import { reviewMessages as m, type Review } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf } from '../../platform/cursor.ts';
import { itemSummaries } from '../catalog/index.ts';
import { contactsOf } from '../users/index.ts';
import { presentReview } from './presenter.ts';
import { reviewColumns, type ReviewRow } from './repository.ts';

/** A cursor names the last review shown; its place is read from the row (ADR 036). */
const VENDOR_REVIEW_CURSOR = cursorKind('vendor-reviews', [cursorField.id], m.badCursor);

async function present(db: Tx, rows: ReviewRow[]): Promise<Review[]> {
  const [people, products] = await Promise.all([
    contactsOf(db, [...new Set(rows.map((r) => r.user_id))]),
    itemSummaries(
      db,
      rows.map((r) => ({ type: 'product' as const, id: r.product_id })),
    ),
  ]);
  return rows.map((r) => {
    const item = products.get(`product:${r.product_id}`);
    return presentReview(
      r,
      { id: r.product_id, slug: item?.slug ?? '', title: item?.title ?? '' },
      people.get(r.user_id)?.username ?? null,
    );
  });
}

/**
 * Published reviews of the vendor's products, newest first (the vendor's partial index), with an
 * optional star filter and "not answered yet". Hidden reviews are their authors' alone (ADR 036).
 */
export async function vendorReviews(
  deps: AppDeps,
  vendorId: string,
  query: {
    rating?: number | undefined;
    unreplied?: boolean | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ reviews: Review[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const cursorId = query.cursor ? deps.cursors.decode(VENDOR_REVIEW_CURSOR, query.cursor)[0] : null;
  const found = await db.execute<ReviewRow>(sql`select ${reviewColumns} from reviews r
    ${cursorId ? sql`join reviews c on c.id = ${cursorId} and c.vendor_id = ${vendorId}` : sql``}
    where r.vendor_id = ${vendorId} and r.hidden_reason is null
      ${query.rating ? sql`and r.rating = ${query.rating}` : sql``}
      ${query.unreplied ? sql`and r.reply_text is null` : sql``}
      ${cursorId ? sql`and (r.created_at, r.id) < (c.created_at, c.id)` : sql``}
    order by r.created_at desc, r.id desc
    limit ${query.limit + 1}`);
  const { page, nextCursor } = pageOf(found.rows, query.limit, (last) =>
    deps.cursors.encode(VENDOR_REVIEW_CURSOR, [last.id]),
  );
  return { reviews: await present(db, page), nextCursor };
}
