// The reviews module's part of an account export (ADR 060). A deletion hides the reviews through
// `purchase.revoked` (reviews.purchase-undone), as a vendor's revocation does.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { createdPages } from '../../db/pages.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The account's reviews, a page at a time. */
export function reviewPages(db: Tx, userId: string) {
  return createdPages(
    db,
    sql`id, product_id, rating, text, created_at, edited_at`,
    sql`reviews where user_id = ${userId}`,
    (r: {
      id: string;
      product_id: string;
      rating: number;
      text: string;
      created_at: Date;
      edited_at: Date | null;
    }) => ({
      id: r.id,
      productId: r.product_id,
      rating: Number(r.rating),
      text: r.text,
      createdAt: iso(r.created_at)!,
      editedAt: iso(r.edited_at),
    }),
  );
}
