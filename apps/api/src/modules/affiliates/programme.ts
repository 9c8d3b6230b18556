// Use case: a vendor's affiliate programme terms (open or by invitation, commission, cookie window).
import type { Programme } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';

/** Terms a vendor's invitation offers when it names none and no programme was set up. */
export const DEFAULT_TERMS = { commissionBps: 2000, cookieDays: 30 } as const;

type ProgrammeRow = {
  vendor_id: string;
  open: boolean;
  commission_bps: number;
  cookie_days: number;
};

const view = (r: ProgrammeRow): Programme => ({
  vendorId: r.vendor_id,
  open: r.open,
  commissionBps: r.commission_bps,
  cookieDays: r.cookie_days,
});

export async function programmeOf(db: Tx, vendorId: string): Promise<Programme | null> {
  const found = await db.execute<ProgrammeRow>(
    sql`select vendor_id, open, commission_bps, cookie_days from affiliate_programmes
        where vendor_id = ${vendorId}`,
  );
  return found.rows[0] ? view(found.rows[0]) : null;
}

export async function vendorProgramme(deps: AppDeps, vendorId: string) {
  return { programme: await programmeOf(deps.database.db, vendorId) };
}

/** Sets the terms new referrals get; links already made keep theirs (what the affiliate agreed to). */
export async function updateProgramme(
  deps: AppDeps,
  vendorId: string,
  terms: { open: boolean; commissionBps: number; cookieDays: number },
): Promise<{ programme: Programme }> {
  const found = await deps.database.db.execute<ProgrammeRow>(
    sql`insert into affiliate_programmes (vendor_id, open, commission_bps, cookie_days)
        values (${vendorId}, ${terms.open}, ${terms.commissionBps}, ${terms.cookieDays})
        on conflict (vendor_id) do update set open = excluded.open,
          commission_bps = excluded.commission_bps, cookie_days = excluded.cookie_days,
          updated_at = now()
        returning vendor_id, open, commission_bps, cookie_days`,
  );
  return { programme: view(found.rows[0]!) };
}

/**
 * The shortest and longest referral windows (cookie days) of the programmes open now, for pages that
 * describe them (issue 27: the vendor page said 30 days while programmes ran 14 to 60); null if none.
 */
export async function openReferralWindows(
  db: Tx,
): Promise<{ minDays: number; maxDays: number } | null> {
  const { rows } = await db.execute<{ min: number | null; max: number | null }>(
    sql`select min(cookie_days)::int as min, max(cookie_days)::int as max
      from affiliate_programmes where open`,
  );
  const r = rows[0];
  return r && r.min !== null && r.max !== null ? { minDays: r.min, maxDays: r.max } : null;
}
