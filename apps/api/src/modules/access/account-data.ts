// The access module's part of an account export (ADR 060): the library, as entitlements.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { createdPages } from '../../db/pages.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The library (entitlements), a page at a time. */
export function libraryPages(db: Tx, userId: string) {
  return createdPages(
    db,
    sql`purchase_id, product_id, kind, status, ends_at, ended_reason, created_at`,
    sql`entitlements where user_id = ${userId}`,
    (r: {
      purchase_id: string;
      product_id: string;
      kind: string;
      status: string;
      ends_at: Date | null;
      ended_reason: string | null;
      created_at: Date;
    }) => ({
      purchaseId: r.purchase_id,
      productId: r.product_id,
      kind: r.kind,
      status: r.status,
      endsAt: iso(r.ends_at),
      endedReason: r.ended_reason,
      createdAt: iso(r.created_at)!,
    }),
  );
}
