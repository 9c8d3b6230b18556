// The access module's part of an account export (ADR 060): the library, as entitlements.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { keysetPages } from '../../db/pages.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The library (entitlements), a page at a time. */
export function libraryPages(db: Tx, userId: string) {
  return keysetPages(
    db,
    { at: sql`created_at`, id: sql`id` },
    (after, limit) => sql`select purchase_id, product_id, kind, status, ends_at, ended_reason,
      created_at, created_at::text as page_at, id as page_id
    from entitlements where user_id = ${userId} ${after} order by created_at, id limit ${limit}`,
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
