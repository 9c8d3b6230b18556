// The affiliates module's part of exporting and deleting an account (ADR 060). The balance itself
// is the ledger's (orders); a deletion waits until it is zero.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export async function affiliateExport(db: Tx, userId: string) {
  const links = await db.execute<{
    ref_id: string;
    vendor_id: string;
    commission_bps: number;
    created_at: Date;
  }>(sql`select ref_id, vendor_id, commission_bps, created_at from referral_links
    where user_id = ${userId} order by created_at, ref_id`);
  const payouts = await db.execute<{
    id: string;
    amount: number;
    currency: string;
    status: string;
    created_at: Date;
  }>(sql`select id, amount, currency, status, created_at from affiliate_payouts
    where user_id = ${userId} order by created_at, id`);
  return {
    links: links.rows.map((l) => ({
      refId: l.ref_id,
      vendorId: l.vendor_id,
      commissionBps: l.commission_bps,
      createdAt: iso(l.created_at),
    })),
    payouts: payouts.rows.map((p) => ({
      id: p.id,
      amount: { amount: p.amount, currency: p.currency },
      status: p.status,
      createdAt: iso(p.created_at),
    })),
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
