// Use case: a buyer writes or edits their one review of a product.
import { reviewMessages as m, type OwnReview, type ReviewSummary } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { contactsOf } from '../users/index.ts';
import { eligibility, productOf } from './eligibility.ts';
import { presentOwnReview } from './presenter.ts';
import { refreshProductRating } from './ratings.ts';
import { lockProductStats, reviewColumns, type ReviewRow } from './repository.ts';
import { reviewRules } from './rules.ts';

/**
 * Creates the review, or edits the one the buyer has (marked edited when the stars or text changed).
 * Eligibility is checked under the product's counts lock, which a refund's subscriber takes too, so
 * a review and the refund that takes its right away cannot pass each other unseen. A review hidden
 * after a refund is published again only by saving it once the buyer owns the product again.
 */
export async function postReview(
  deps: AppDeps,
  userId: string,
  body: { productId: string; rating: number; text: string },
): Promise<{ review: OwnReview; summary: ReviewSummary }> {
  await deps.limiter.consume([{ rule: reviewRules.write, key: userId }]);
  const db = deps.database.db;
  const product = await productOf(db, body.productId);
  if (!product) throw new AppError('not_found', m.productNotFound);

  const { row, summary, queued } = await db.transaction(async (tx) => {
    await lockProductStats(tx, product.id, product.vendorId);
    const allowed = await eligibility(tx, userId, product);
    if (!allowed.ok) throw new AppError('forbidden', allowed.reason);
    const saved = await tx.execute<ReviewRow & { changed: boolean }>(sql`
      insert into reviews as r (id, product_id, vendor_id, user_id, rating, text)
      values (${newId('rev')}, ${product.id}, ${product.vendorId}, ${userId}, ${body.rating}, ${body.text})
      on conflict (product_id, user_id) do update set
        rating = excluded.rating, text = excluded.text,
        updated_at = case when (r.rating, r.text) is distinct from (excluded.rating, excluded.text)
          then now() else r.updated_at end,
        edited_at = case when (r.rating, r.text) is distinct from (excluded.rating, excluded.text)
          then now() else r.edited_at end,
        hidden_reason = null, hidden_at = null
      returning ${reviewColumns}, (r.updated_at = now()) as changed`);
    const { changed, ...row } = saved.rows[0]!;
    // Written or edited now (saving the same words again is no news): the vendor's webhooks hear it.
    if (changed)
      await deps.events.publish(tx, 'review.posted', row.id, {
        reviewId: row.id,
        productId: product.id,
        vendorId: product.vendorId,
        buyerId: userId,
        rating: row.rating,
        text: row.text,
        edited: row.edited_at !== null,
      });
    return {
      row: row as ReviewRow,
      summary: await refreshProductRating(tx, product.id),
      queued: deps.events.queuedIn(tx),
    };
  });
  await deps.events.notify(queued);
  const username = (await contactsOf(db, [userId])).get(userId)?.username ?? null;
  return { review: presentOwnReview(row, product, username), summary };
}
