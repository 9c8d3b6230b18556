import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../lib.ts';
import { hashPassword } from '../auth/index.ts';
import { createAccount, findAccountByEmail } from '../users/index.ts';
import { demoReviewers, demoReviews } from './demo-reviews.ts';
import { productOf } from './eligibility.ts';
import { refreshProductRating } from './ratings.ts';
import { lockProductStats } from './repository.ts';

const DAY = 86_400_000;
export const demoReviewerEmail = (username: string) =>
  `${username.toLowerCase()}@buyers.tradeshelf.test`;

/**
 * Idempotent: the demo reviewers (accounts that cannot sign in), what they own and their reviews
 * with the vendors' replies, then each reviewed product's counts and catalogue rating. The catalogue
 * is reached through the wiring: `productId` finds a demo product by title, `own` records that the
 * reviewer owns it. Returns how many reviews it wrote.
 */
export async function seedDemoReviews(
  db: Db,
  catalog: {
    productId(title: string): Promise<string | null>;
    own(userId: string, productId: string): Promise<void>;
  },
): Promise<number> {
  const people = new Map<string, string>();
  let lockedHash: string | null = null;
  for (const username of demoReviewers) {
    const email = demoReviewerEmail(username);
    let account = await findAccountByEmail(db, email);
    if (!account) {
      lockedHash ??= await hashPassword(newId('locked'));
      account = await createAccount(db, {
        id: newId('usr'),
        email,
        passwordHash: lockedHash,
        username,
        roles: ['buyer'],
        emailVerifiedAt: new Date(),
      });
    }
    if (account) people.set(username, account.id);
  }
  const expected = Object.values(demoReviews).reduce((n, list) => n + list.length, 0);
  const have = await db.execute<{ n: number }>(sql`select count(*)::int as n from reviews
    where user_id = any(${sql.param([...people.values()])}::text[])`);
  if ((have.rows[0]?.n ?? 0) >= expected) return 0;

  const now = Date.now();
  let written = 0;
  for (const [title, reviews] of Object.entries(demoReviews)) {
    const id = await catalog.productId(title);
    const product = id ? await productOf(db, id) : null;
    if (!product) continue;
    // Before the transaction: the embedded database serves one transaction at a time (ADR 010).
    for (const r of reviews) {
      const userId = people.get(r.by);
      if (userId) await catalog.own(userId, product.id);
    }
    await db.transaction(async (tx) => {
      await lockProductStats(tx, product.id, product.vendorId);
      for (const [i, r] of reviews.entries()) {
        const userId = people.get(r.by);
        if (!userId) continue;
        // Spread over the day too, so reviews of one day do not share a time.
        const at = new Date(now - r.daysAgo * DAY - (i + 1) * 3_600_000);
        const edited = r.editedDaysAgo !== undefined ? new Date(now - r.editedDaysAgo * DAY) : null;
        const replied = r.reply ? new Date(at.getTime() + DAY) : null;
        const inserted = await tx.execute(sql`insert into reviews (id, product_id, vendor_id,
            user_id, rating, text, created_at, updated_at, edited_at, reply_text, replied_at)
          values (${newId('rev')}, ${product.id}, ${product.vendorId}, ${userId}, ${r.rating},
            ${r.text}, ${at}, ${edited ?? at}, ${edited}, ${r.reply ?? null}, ${replied})
          on conflict (product_id, user_id) do nothing returning id`);
        written += inserted.rows.length;
      }
      await refreshProductRating(tx, product.id);
    });
  }
  return written;
}
