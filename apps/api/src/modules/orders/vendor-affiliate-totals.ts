// Use case: what each affiliate brought one vendor (the vendor's affiliates screen): paid referred
// purchases and commission net of clawbacks, from purchases and the ledger, which orders owns.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rows } from './repository.ts';

export interface VendorAffiliateTotals {
  sales: number;
  /** Net commission per currency, minor units. */
  commission: Array<{ amount: number; currency: string }>;
}

/** Per referral id, for the given affiliates (users) of one vendor. */
export async function vendorAffiliateTotals(
  db: Tx,
  vendorId: string,
  affiliateUserIds: readonly string[],
): Promise<Map<string, VendorAffiliateTotals>> {
  const out = new Map<string, VendorAffiliateTotals>();
  if (!affiliateUserIds.length) return out;
  const users = sql.param([...new Set(affiliateUserIds)]);
  const [sales, commission] = await Promise.all([
    rows<{ ref_id: string; sales: number }>(
      db,
      sql`select ref_id, count(*)::int as sales from purchases
        where affiliate_user_id = any(${users}::text[]) and vendor_id = ${vendorId}
          and paid_at is not null and ref_id is not null
        group by ref_id`,
    ),
    rows<{ ref_id: string; currency: string; amount: number }>(
      db,
      sql`select p.ref_id, l.currency, sum(l.amount)::int as amount
        from purchases p join ledger_entries l on l.purchase_id = p.id
          and l.account_type = 'affiliate' and l.account_id = p.affiliate_user_id
        where p.affiliate_user_id = any(${users}::text[]) and p.vendor_id = ${vendorId}
          and p.ref_id is not null
        group by p.ref_id, l.currency order by l.currency`,
    ),
  ]);
  const entry = (refId: string) => {
    let e = out.get(refId);
    if (!e) out.set(refId, (e = { sales: 0, commission: [] }));
    return e;
  };
  for (const s of sales) entry(s.ref_id).sales = s.sales;
  for (const c of commission)
    entry(c.ref_id).commission.push({ amount: c.amount, currency: c.currency });
  return out;
}
