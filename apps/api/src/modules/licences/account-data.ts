// The licences module's part of an account export (ADR 060). The keys themselves stay out: the
// licence page shows them to a signed-in owner, and an export file travels further.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function licencesExport(db: Tx, userId: string) {
  const res = await db.execute<{
    id: string;
    product_id: string;
    purchase_id: string | null;
    status: string;
    expires_at: Date | null;
    ended_reason: string | null;
    activations: number;
    issued_at: Date;
  }>(sql`select l.id, l.product_id, l.purchase_id, l.status, l.expires_at, l.ended_reason,
      (select count(*)::int from licence_activations a where a.licence_id = l.id) as activations,
      l.issued_at
    from licences l where l.user_id = ${userId} order by l.issued_at, l.id`);
  return res.rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    purchaseId: r.purchase_id,
    status: r.status,
    expiresAt: iso(r.expires_at),
    endedReason: r.ended_reason,
    activations: r.activations,
    issuedAt: iso(r.issued_at)!,
  }));
}
