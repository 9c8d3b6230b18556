// Use cases: a vendor answers a review of one of its products, once, and rewrites that answer.
import { reviewMessages as m, type Review } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { contactsOf } from '../users/index.ts';
import { productOf } from './eligibility.ts';
import { presentReview } from './presenter.ts';
import { reviewColumns, reviewWhere, type ReviewRow } from './repository.ts';
import { reviewRules } from './rules.ts';

/**
 * One statement writes the reply only where it stands as expected (none yet for a reply, one for
 * an edit), so two writes racing leave one. A review of another vendor's product, or one hidden
 * after a refund, is not found; one in the other state is a conflict (`refusal`). The reply's
 * date is the write's: what buyers read is dated when it was written.
 */
async function writeReply(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  reviewId: string,
  text: string,
  expect: { replied: boolean; refusal: string },
): Promise<Review> {
  await deps.limiter.consume([{ rule: reviewRules.write, key: userId }]);
  const db = deps.database.db;
  const mine = sql`r.id = ${reviewId} and r.vendor_id = ${vendorId} and r.hidden_reason is null`;
  const updated = await db.execute<ReviewRow>(sql`update reviews r
    set reply_text = ${text}, replied_at = now()
    where ${mine} and r.reply_text ${expect.replied ? sql`is not null` : sql`is null`}
    returning ${reviewColumns}`);
  const row = updated.rows[0];
  if (!row) {
    if (await reviewWhere(db, mine)) throw new AppError('conflict', expect.refusal);
    throw new AppError('not_found', m.reviewNotFound);
  }
  const [product, people] = await Promise.all([
    productOf(db, row.product_id),
    contactsOf(db, [row.user_id]),
  ]);
  return presentReview(
    row,
    product ?? { id: row.product_id, slug: '', title: '' },
    people.get(row.user_id)?.username ?? null,
  );
}

/** A vendor answers a review of one of its products, once. */
export const replyToReview = (
  deps: AppDeps,
  userId: string,
  vendorId: string,
  reviewId: string,
  text: string,
) =>
  writeReply(deps, userId, vendorId, reviewId, text, { replied: false, refusal: m.alreadyReplied });

/** Rewrites the vendor's reply; a review with no reply yet is a conflict (reply first). */
export const editReply = (
  deps: AppDeps,
  userId: string,
  vendorId: string,
  reviewId: string,
  text: string,
) => writeReply(deps, userId, vendorId, reviewId, text, { replied: true, refusal: m.noReplyYet });
