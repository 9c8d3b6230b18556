// SQL several review use cases share: the review row, and the per-product counts with their lock.
import type { ReviewHiddenReason } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface ReviewRow extends Record<string, unknown> {
  id: string;
  product_id: string;
  vendor_id: string;
  user_id: string;
  rating: number;
  text: string;
  /** PostgreSQL's text for the time (ADR 014): exact, so page cursors lose nothing. */
  created_at: string | Date;
  updated_at: string | Date;
  edited_at: string | Date | null;
  hidden_reason: ReviewHiddenReason | null;
  reply_text: string | null;
  replied_at: string | Date | null;
}

export const reviewColumns = sql`r.id, r.product_id, r.vendor_id, r.user_id, r.rating, r.text,
  r.created_at, r.updated_at, r.edited_at, r.hidden_reason, r.reply_text, r.replied_at`;

export interface StatsRow extends Record<string, unknown> {
  c1: number;
  c2: number;
  c3: number;
  c4: number;
  c5: number;
}

export async function reviewWhere(db: Tx, where: SQL): Promise<ReviewRow | null> {
  const found = await db.execute<ReviewRow>(
    sql`select ${reviewColumns} from reviews r where ${where} limit 1`,
  );
  return found.rows[0] ?? null;
}

/**
 * Takes the product's counts row (creating it), locked to commit: writers of one product's reviews
 * take turns, so each recount sees the reviews every earlier writer committed.
 */
export async function lockProductStats(db: Tx, productId: string, vendorId: string) {
  await db.execute(sql`insert into review_stats (product_id, vendor_id)
    values (${productId}, ${vendorId})
    on conflict (product_id) do update set updated_at = review_stats.updated_at`);
}

/** Counts the product's published reviews again (level-triggered: repeats change nothing). */
export async function recountProduct(db: Tx, productId: string): Promise<StatsRow> {
  const found = await db.execute<StatsRow>(sql`
    update review_stats s set count_1 = c.c1, count_2 = c.c2, count_3 = c.c3, count_4 = c.c4,
      count_5 = c.c5, updated_at = now()
    from (select count(*) filter (where rating = 1)::int as c1,
            count(*) filter (where rating = 2)::int as c2,
            count(*) filter (where rating = 3)::int as c3,
            count(*) filter (where rating = 4)::int as c4,
            count(*) filter (where rating = 5)::int as c5
          from reviews where product_id = ${productId} and hidden_reason is null) c
    where s.product_id = ${productId}
    returning s.count_1 as c1, s.count_2 as c2, s.count_3 as c3, s.count_4 as c4, s.count_5 as c5`);
  return found.rows[0] ?? { c1: 0, c2: 0, c3: 0, c4: 0, c5: 0 };
}
