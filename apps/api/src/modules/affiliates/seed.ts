// Demo data for the affiliate programme: open and invite-only programmes on the demo vendors, the
// demo affiliate's clicks, a completed sandbox payout account, an invitation and past payouts. The
// referred sales themselves are orders' (`seedDemoReferredSales`), written before this runs.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { seedSandboxAccount } from '../../integrations/payments/stripe-sandbox.ts';
import { vendorIdByUrl } from '../catalog/index.ts';
import * as orders from '../orders/index.ts';

/** Each demo vendor's programme: commission (bps), cookie days, and whether anyone may join. */
export const DEMO_PROGRAMMES: ReadonlyArray<[string, number, number, boolean]> = [
  ['alpha-edge', 2000, 30, true],
  ['orderflow-pro', 2500, 45, true],
  ['pip-hunters', 1500, 30, true],
  ['options-owl', 3000, 60, false],
  ['crypto-compass', 2000, 30, true],
  ['swing-school', 3000, 60, true],
  ['quant-forge', 1500, 30, true],
  ['tape-readers', 2500, 30, false],
  ['thinkscript-lab', 2000, 14, true],
  ['algo-harbor', 2000, 30, true],
];

export async function seedDemoProgrammes(db: Db): Promise<void> {
  for (const [vendorUrl, bps, cookieDays, open] of DEMO_PROGRAMMES) {
    const vendorId = await vendorIdByUrl(db, vendorUrl);
    if (!vendorId) continue;
    await db.execute(sql`insert into affiliate_programmes (vendor_id, open, commission_bps, cookie_days)
      values (${vendorId}, ${open}, ${bps}, ${cookieDays}) on conflict do nothing`);
  }
}

/** The demo affiliate's connected account (the id earlier seeds gave it). */
const DEMO_ACCOUNT = 'acct_sbx_demo_affiliate';

/**
 * Idempotent: the demo affiliate's clicks (a few a day over `days`), a completed sandbox payout
 * account, a pending invitation from an invite-only vendor, a paid payout and a failed one (its
 * amount back in the balance) so the withdrawals list shows both.
 */
export async function seedDemoAffiliate(
  db: Db,
  options: { userId: string; email: string; refId: string; days: number },
): Promise<void> {
  // The payout account is a Stripe connected account: the sandbox holds it (also for a database
  // seeded before it did).
  await seedSandboxAccount(db, {
    id: DEMO_ACCOUNT,
    email: options.email,
    businessName: 'Demo Affiliate',
  });
  const seeded = await db.execute(
    sql`select 1 from affiliate_payout_accounts where user_id = ${options.userId} and provider = 'stripe'`,
  );
  const link = await db.execute(sql`select 1 from referral_links where ref_id = ${options.refId}`);
  if (seeded.rows.length || !link.rows.length) return;
  // 2–7 visitors a day, the same every start (a hash of the day, not randomness).
  await db.execute(sql`insert into affiliate_clicks (ref_id, visitor, day, created_at)
    select ${options.refId}, 'demo-' || d::date || '-' || n, d::date, d
    from generate_series(now() - make_interval(days => ${options.days}), now(), interval '1 day') d,
      generate_series(1, 7) n
    where n <= 2 + abs(hashtext(d::date::text)) % 6
    on conflict do nothing`);
  await db.execute(sql`insert into affiliate_payout_accounts (user_id, provider, account_id, payouts_enabled)
    values (${options.userId}, 'stripe', ${DEMO_ACCOUNT}, true) on conflict do nothing`);
  const owl = await vendorIdByUrl(db, 'options-owl');
  if (owl) {
    await db.execute(sql`insert into affiliate_invites (id, vendor_id, email, ref_id, commission_bps,
        cookie_days, expires_at)
      values ('inv_demo_options_owl', ${owl}, ${options.email}, 'options-owl-demo', 3000, 60,
        now() + interval '30 days')
      on conflict do nothing`);
  }
  const past = [
    { id: 'pay_demo_paid', amount: 15_000, daysAgo: 75, status: 'paid', reason: null },
    {
      id: 'pay_demo_failed',
      amount: 9_000,
      daysAgo: 40,
      status: 'failed',
      reason: 'The bank account of the connected account rejected the transfer.',
    },
  ] as const;
  for (const p of past) {
    const at = sql`now() - make_interval(days => ${p.daysAgo})`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into affiliate_payouts (id, user_id, provider, account_id, amount,
          currency, status, idempotency_key, transfer_id, failure_reason, created_at, updated_at)
        values (${p.id}, ${options.userId}, 'stripe', ${DEMO_ACCOUNT}, ${p.amount}, 'usd',
          ${p.status}, ${`payout:${p.id}`}, ${`tr_sbx_demo_${p.id}`}, ${p.reason}, ${at}, ${at})
        on conflict do nothing`);
      const entry = {
        payoutId: p.id,
        userId: options.userId,
        amount: p.amount,
        currency: 'usd',
        provider: 'stripe',
      };
      await orders.recordAffiliatePayout(tx, entry);
      if (p.status === 'failed') await orders.returnAffiliatePayout(tx, entry);
    });
  }
}
