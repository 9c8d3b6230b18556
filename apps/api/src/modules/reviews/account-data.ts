// The reviews module's part of an account export (ADR 060). A deletion hides the reviews through
// `purchase.revoked` (reviews.purchase-undone), as a vendor's revocation does.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function reviewsExport(db: Tx, userId: string) {
  const res = await db.execute<{
    id: string;
    product_id: string;
    rating: number;
    text: string;
    created_at: Date;
    edited_at: Date | null;
  }>(sql`select id, product_id, rating, text, created_at, edited_at
    from reviews where user_id = ${userId} order by created_at, id`);
  return res.rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    rating: Number(r.rating),
    text: r.text,
    createdAt: iso(r.created_at)!,
    editedAt: iso(r.edited_at),
  }));
}
