import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/**
 * The affiliate a referral id credits on this vendor's sale, with their commission; null for an
 * unknown id, another vendor's, or the buyer's own (a self-referral earns nothing).
 */
export async function referralFor(
  db: Tx,
  refId: string,
  vendorId: string,
  buyerId: string,
): Promise<{ user_id: string; commission_bps: number } | null> {
  const { rows } = await db.execute<{ user_id: string; commission_bps: number }>(
    sql`select user_id, commission_bps from referral_links
        where ref_id = ${refId} and vendor_id = ${vendorId} and user_id <> ${buyerId}`,
  );
  return rows[0] ?? null;
}
