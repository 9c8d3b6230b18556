// The affiliates module's part of exporting and deleting an account (ADR 060). The balance itself
// is the ledger's (orders); a deletion waits until it is zero.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { keysetPages } from '../../db/pages.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The account's referral links and affiliate payouts, each a page at a time. */
export function affiliateExport(db: Tx, userId: string) {
  return {
    links: keysetPages(
      db,
      { at: sql`created_at`, id: sql`ref_id` },
      (after, limit) => sql`select ref_id, vendor_id, commission_bps, created_at,
        created_at::text as page_at, ref_id as page_id
      from referral_links where user_id = ${userId} ${after}
      order by created_at, ref_id limit ${limit}`,
      (l: { ref_id: string; vendor_id: string; commission_bps: number; created_at: Date }) => ({
        refId: l.ref_id,
        vendorId: l.vendor_id,
        commissionBps: l.commission_bps,
        createdAt: iso(l.created_at),
      }),
    ),
    payouts: keysetPages(
      db,
      { at: sql`created_at`, id: sql`id` },
      (after, limit) => sql`select id, amount, currency, status, created_at,
        created_at::text as page_at, id as page_id
      from affiliate_payouts where user_id = ${userId} ${after}
      -- never null: spelled as the (desc nulls last) index reads backwards, so it serves the page
      order by created_at nulls first, id nulls first limit ${limit}`,
      (p: { id: string; amount: number; currency: string; status: string; created_at: Date }) => ({
        id: p.id,
        amount: { amount: p.amount, currency: p.currency },
        status: p.status,
        createdAt: iso(p.created_at),
      }),
    ),
  };
}

/**
 * In the deleting transaction: referral links (and their clicks) go, so no sale earns the deleted
 * account a commission, and so does the payout account. Payout rows stay (ledger records).
 */
export async function forgetAffiliate(
  tx: Tx,
  user: { id: string; email: string },
  replacement: string,
): Promise<void> {
  await tx.execute(sql`delete from referral_links where user_id = ${user.id}`);
  await tx.execute(sql`delete from affiliate_payout_accounts where user_id = ${user.id}`);
  // Invitations name the address: accepted ones lose it, pending ones to it are withdrawn.
  await tx.execute(sql`update affiliate_invites set email = ${replacement}
    where accepted_by = ${user.id}`);
  await tx.execute(sql`delete from affiliate_invites where status = 'pending'
    and lower(email) = lower(${user.email})`);
}
