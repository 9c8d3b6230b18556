// Use case: the vendors an affiliate can promote, and generating a referral link for one.
import { affiliateMessages, type AffiliateVendor } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { randomToken } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorSummaries } from '../catalog/index.ts';
import { vendorEntry, type VendorRow } from './presenter.ts';

/** The affiliate's row for each vendor: their own link's terms, else the open programme's. */
const vendorRows = (userId: string, which: SQL) => sql`
  select v.vendor_id, l.ref_id,
    coalesce(l.commission_bps, p.commission_bps) as commission_bps,
    coalesce(l.cookie_days, p.cookie_days) as cookie_days,
    coalesce(p.open, false) as open
  from (${which}) v
  left join affiliate_programmes p on p.vendor_id = v.vendor_id
  left join referral_links l on l.vendor_id = v.vendor_id and l.user_id = ${userId}`;

export async function affiliateVendorsOf(
  db: Tx,
  userId: string,
  which: SQL,
  origin: string,
): Promise<AffiliateVendor[]> {
  const found = await db.execute<VendorRow>(vendorRows(userId, which));
  const names = await vendorSummaries(
    db,
    found.rows.map((r) => r.vendor_id),
  );
  return found.rows
    .map((r) => vendorEntry(r, names.get(r.vendor_id), origin))
    .filter((v) => v.vendorUrl !== '');
}

/** Open programmes and those the user joined; joined first, then by name. */
export async function listVendors(
  deps: AppDeps,
  userId: string,
  origin: string,
  limit: number,
): Promise<{ vendors: AffiliateVendor[] }> {
  const vendors = await affiliateVendorsOf(
    deps.database.db,
    userId,
    sql`select vendor_id from referral_links where user_id = ${userId}
        union select vendor_id from affiliate_programmes where open`,
    origin,
  );
  vendors.sort((a, b) => Number(b.joined) - Number(a.joined) || a.name.localeCompare(b.name, 'en'));
  return { vendors: vendors.slice(0, limit) };
}

/** A referral id: readable (the vendor's address) and unguessable enough not to collide. */
export function newRefId(vendorUrl: string): string {
  const stem = vendorUrl
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24);
  const tail = randomToken(6)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 8)
    .toLowerCase();
  return `${stem || 'ref'}-${tail}`;
}

/**
 * The user's referral for a vendor: the existing one, or a new link on the open programme's terms.
 * Two requests at once make one link (the vendor and user key).
 */
export async function generateRef(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  origin: string,
): Promise<{ referral: AffiliateVendor }> {
  const db = deps.database.db;
  const one = sql`select ${vendorId}::text as vendor_id`;
  const [current] = await affiliateVendorsOf(db, userId, one, origin);
  if (current?.refId) return { referral: current };
  const vendor = (await vendorSummaries(db, [vendorId])).get(vendorId);
  if (!vendor || !current) throw new AppError('not_found', affiliateMessages.vendorNotFound);
  if (!current.open) throw new AppError('business_rule', affiliateMessages.inviteOnly);
  await db.execute(sql`insert into referral_links (ref_id, vendor_id, user_id, commission_bps, cookie_days)
    select ${newRefId(vendor.vendorUrl)}, vendor_id, ${userId}, commission_bps, cookie_days
    from affiliate_programmes where vendor_id = ${vendorId} and open
    on conflict (vendor_id, user_id) do nothing`);
  const [made] = await affiliateVendorsOf(db, userId, one, origin);
  if (!made?.refId) throw new AppError('business_rule', affiliateMessages.inviteOnly);
  return { referral: made };
}
