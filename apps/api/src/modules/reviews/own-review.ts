// Use case: the buyer's own review of a product, and whether they may write or edit one.
import { reviewMessages as m, type OwnReview } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { contactsOf } from '../users/index.ts';
import { eligibility, productOf } from './eligibility.ts';
import { presentOwnReview } from './presenter.ts';
import { reviewWhere } from './repository.ts';

export async function ownReview(
  deps: AppDeps,
  userId: string,
  productId: string,
): Promise<{ review: OwnReview | null; canReview: boolean; reason: string | null }> {
  const db = deps.database.db;
  const product = await productOf(db, productId);
  if (!product) throw new AppError('not_found', m.productNotFound);
  const [row, allowed] = await Promise.all([
    reviewWhere(db, sql`r.product_id = ${productId} and r.user_id = ${userId}`),
    eligibility(db, userId, product),
  ]);
  const username = row ? ((await contactsOf(db, [userId])).get(userId)?.username ?? null) : null;
  return {
    review: row ? presentOwnReview(row, product, username) : null,
    canReview: allowed.ok,
    reason: allowed.ok ? null : allowed.reason,
  };
}
