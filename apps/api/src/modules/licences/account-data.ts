// The licences module's part of an account export (ADR 060). The keys themselves stay out: the
// licence page shows them to a signed-in owner, and an export file travels further.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { keysetPages } from '../../db/pages.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The account's licences (without their keys), a page at a time. */
export function licencePages(db: Tx, userId: string) {
  return keysetPages(
    db,
    { at: sql`l.issued_at`, id: sql`l.id` },
    (after, limit) => sql`select l.id, l.product_id, l.purchase_id, l.status, l.expires_at,
      l.ended_reason,
      (select count(*)::int from licence_activations a where a.licence_id = l.id) as activations,
      l.issued_at, l.issued_at::text as page_at, l.id as page_id
    from licences l where l.user_id = ${userId} ${after} order by l.issued_at, l.id limit ${limit}`,
    (r: {
      id: string;
      product_id: string;
      purchase_id: string | null;
      status: string;
      expires_at: Date | null;
      ended_reason: string | null;
      activations: number;
      issued_at: Date;
    }) => ({
      id: r.id,
      productId: r.product_id,
      purchaseId: r.purchase_id,
      status: r.status,
      expiresAt: iso(r.expires_at),
      endedReason: r.ended_reason,
      activations: r.activations,
      issuedAt: iso(r.issued_at)!,
    }),
  );
}
