// Use cases (vendor): withdraw a pending invitation; the affiliates promoting the vendor, with what
// each link brought.
import { affiliateMessages as m, type VendorAffiliate } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorAffiliateTotals } from '../orders/index.ts';
import { contactsOf } from '../users/index.ts';

/**
 * Deletes a pending invitation of the vendor: the e-mailed link then finds nothing (the same 404 as
 * an unknown one). An accepted invitation made a referral link; withdrawing it would undo nothing.
 */
export async function revokeInvite(
  deps: AppDeps,
  vendorId: string,
  inviteId: string,
): Promise<{ id: string }> {
  const db = deps.database.db;
  const removed = await db.execute(sql`delete from affiliate_invites
    where id = ${inviteId} and vendor_id = ${vendorId} and status = 'pending' returning id`);
  if (removed.rows.length) return { id: inviteId };
  const found = await db.execute<{ status: string }>(
    sql`select status from affiliate_invites where id = ${inviteId} and vendor_id = ${vendorId}`,
  );
  if (found.rows[0]) throw new AppError('conflict', m.inviteAccepted);
  throw new AppError('not_found', m.inviteNotFound);
}

/** A link's referral id; its place is read from its row, so another vendor's reads nothing. */
const AFFILIATE_CURSOR = cursorKind('affiliate', [cursorField.id]);

/** Newest links first; the cursor names the last link shown. */
export async function vendorAffiliates(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ affiliates: VendorAffiliate[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const after = page.cursor ? deps.cursors.decode(AFFILIATE_CURSOR, page.cursor)[0] : null;
  const found = await db.execute<{
    ref_id: string;
    user_id: string;
    commission_bps: number;
    cookie_days: number;
    created_at: Date | string;
    clicks: number;
  }>(sql`select l.ref_id, l.user_id, l.commission_bps, l.cookie_days, l.created_at,
      (select count(*)::int from affiliate_clicks k where k.ref_id = l.ref_id) as clicks
    from referral_links l
    ${after ? sql`join referral_links c on c.ref_id = ${after} and c.vendor_id = ${vendorId}` : sql``}
    where l.vendor_id = ${vendorId}
      ${after ? sql`and (l.created_at, l.ref_id) < (c.created_at, c.ref_id)` : sql``}
    order by l.created_at desc, l.ref_id desc
    limit ${page.limit + 1}`);
  const { page: rows, nextCursor } = pageOf(found.rows, page.limit, (last) =>
    deps.cursors.encode(AFFILIATE_CURSOR, [last.ref_id]),
  );
  const userIds = rows.map((r) => r.user_id);
  const [people, totals] = await Promise.all([
    contactsOf(db, userIds),
    vendorAffiliateTotals(db, vendorId, userIds),
  ]);
  return {
    affiliates: rows.map((r) => ({
      refId: r.ref_id,
      username: people.get(r.user_id)?.username ?? null,
      commissionBps: r.commission_bps,
      cookieDays: r.cookie_days,
      joinedAt: new Date(r.created_at).toISOString(),
      clicks: r.clicks,
      sales: totals.get(r.ref_id)?.sales ?? 0,
      commission: totals.get(r.ref_id)?.commission ?? [],
    })),
    nextCursor,
  };
}
