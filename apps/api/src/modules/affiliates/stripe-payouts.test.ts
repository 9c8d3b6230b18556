import { affiliateMessages, affiliatesRoutes, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  generateRef,
  moveHoldClock,
  openProgramme,
  overview,
  vendorToken,
} from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  completeSandboxOnboarding,
  createBuyer,
  paySession,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { postStripeEvent } from '../../../test/stripe-events.ts';
import { startStripeSandbox, type StripeSandboxHandle } from '../../../test/stripe-sandbox.ts';
import { useTestApp } from '../../../test/harness.ts';
import { startPayoutOnboarding } from '../../../test/factories/two-factor.ts';
import { retryPayouts } from './payouts.ts';

// Affiliate payouts as Stripe Connect transfers, against the Stripe sandbox: what was asked of it
// (its request log), and its events back.

let stripe: StripeSandboxHandle;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
let seq = 0;

const t = useTestApp(async () => {
  stripe = await startStripeSandbox({
    PLATFORM_FEE_BPS: '500',
    PLATFORM_FEE_FIXED: '0',
    AFFILIATE_MIN_PAYOUT: '1000',
  });
  return stripe.t;
});

beforeAll(async () => {
  vendor = await createVendor(t);
  product = await createProduct(t, vendor.id, { amount: 10_000 });
  await openProgramme(t, await vendorToken(t, vendor));
});

const stripeEvent = (type: string, object: Record<string, unknown>, id = `evt_aff_${++seq}`) =>
  postStripeEvent(t, t.config.STRIPE_WEBHOOK_SECRET!, type, object, id);

/** An affiliate with one referred Stripe sale past its hold and a Stripe account that can be paid. */
async function affiliateWithBalance() {
  const affiliate = await createBuyer(t);
  const { refId } = await generateRef(t, affiliate.token, vendor.id);
  const buyer = await createBuyer(t);
  await paySession(
    t,
    await startProductCheckout(t, buyer, vendor.vendorUrl, { priceId: product.priceId, refId }),
  );

  const started = await startPayoutOnboarding(t, affiliate.token, 'affiliate');
  expect(new URL(started.json().url).pathname).toMatch(/^\/sandbox\/connect\//);
  const accountId = (await stripe.requestsTo('/v1/account_links')).at(-1)!.body.account!;
  const pending = await t.call(ordersRoutes.connectAccountCallback, {
    token: affiliate.token,
    query: { as: 'affiliate' },
  });
  expect(pending.json()).toMatchObject({
    message: affiliateMessages.connectPending,
    payoutsEnabled: false,
  });
  const blocked = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
  expect(blocked.json().error).toBe(affiliateMessages.connectFirst);
  await completeSandboxOnboarding(t, started.json().url);
  const ready = await t.call(ordersRoutes.connectAccountCallback, {
    token: affiliate.token,
    query: { as: 'affiliate' },
  });
  expect(ready.json()).toMatchObject({ message: affiliateMessages.connectReady });
  await moveHoldClock(t, 'advance');
  return { ...affiliate, accountId };
}

const payoutStatus = async (id: string) =>
  (
    await t.database.db.execute<{ status: string; failure_reason: string | null }>(
      sql`select status, failure_reason from affiliate_payouts where id = ${id}`,
    )
  ).rows[0];

describe('affiliate payouts through the Stripe sandbox', () => {
  it('transfers to the connected account with a key derived from the payout', async () => {
    const affiliate = await affiliateWithBalance();
    const res = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(res.statusCode, res.body).toBe(200);
    const payout = res.json().payout;
    expect(payout).toMatchObject({ status: 'paid', amount: { amount: 2_000, currency: 'usd' } });
    const sent = (await stripe.requestsTo('/v1/transfers')).at(-1)!;
    expect(sent.idempotencyKey).toBe(`payout:${payout.id}`);
    expect(sent.body).toMatchObject({
      amount: '2000',
      currency: 'usd',
      destination: affiliate.accountId,
      'metadata[payout_id]': payout.id,
    });

    // Stripe reverses it later: the payout is returned and the balance comes back, once.
    const transfer = {
      id: (
        await t.database.db.execute<{ transfer_id: string }>(
          sql`select transfer_id from affiliate_payouts where id = ${payout.id}`,
        )
      ).rows[0]!.transfer_id,
      object: 'transfer',
      amount: 2_000,
      amount_reversed: 2_000,
      currency: 'usd',
      metadata: { payout_id: payout.id },
      reversed: true,
    };
    for (const id of ['evt_rev_1', 'evt_rev_1', 'evt_rev_2']) {
      const delivered = await stripeEvent('transfer.reversed', transfer, id);
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    expect(await payoutStatus(payout.id)).toEqual({
      status: 'returned',
      failure_reason: 'Stripe reversed the transfer.',
    });
    expect((await overview(t, affiliate.token)).stats.availableBalance.amount).toBe(2_000);
  });

  it('a transfer Stripe refuses fails the payout with its message and returns the balance', async () => {
    const affiliate = await affiliateWithBalance();
    // Stripe has just disabled the account's transfers (its account.updated is still on the way).
    await t.database.db.execute(sql`update sandbox_stripe_objects
      set data = jsonb_set(data, '{payouts_enabled}', 'false') where id = ${affiliate.accountId}`);
    const res = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payout).toMatchObject({
      status: 'failed',
      failureReason:
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
    });
    const seen = await overview(t, affiliate.token);
    expect(seen.stats.availableBalance.amount).toBe(2_000);
    expect(seen.withdrawals[0].status).toBe('failed');
  });

  it('an unknown outcome (Stripe down) stays requested and the retry transfers once', async () => {
    const affiliate = await affiliateWithBalance();
    // The SDK tries three times (two retries), all answered 500.
    stripe.failNext(3);
    const res = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(res.statusCode, res.body).toBe(200);
    const payout = res.json().payout;
    expect(payout.status).toBe('requested');
    // Not due yet: the request that made it may still be transferring.
    expect(await retryPayouts(t.deps)).toBe(0);
    await t.database.db.execute(
      sql`update affiliate_payouts set next_attempt_at = now() where id = ${payout.id}`,
    );
    await Promise.all([retryPayouts(t.deps), retryPayouts(t.deps)]);
    expect((await payoutStatus(payout.id))!.status).toBe('paid');
    expect(stripe.failedKeys.slice(-3)).toEqual(Array(3).fill(`payout:${payout.id}`));
    const attempts = (await stripe.requestsTo('/v1/transfers')).filter(
      (r) => r.body['metadata[payout_id]'] === payout.id,
    );
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(
      new Set([`payout:${payout.id}`]),
    );
    const made = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n
      from sandbox_stripe_objects where type = 'transfer'
      and data->'metadata'->>'payout_id' = ${payout.id}`);
    expect(made.rows[0]!.n).toBe(1);
    // A later `transfer.created` changes nothing: the payout is already paid.
    await stripeEvent('transfer.created', {
      id: 'tr_other',
      object: 'transfer',
      amount: 2_000,
      currency: 'usd',
      metadata: { payout_id: payout.id },
    });
    expect((await payoutStatus(payout.id))!.status).toBe('paid');
  });

  it('a provider outage during the connect callback answers 503 with a message', async () => {
    const affiliate = await createBuyer(t);
    await startPayoutOnboarding(t, affiliate.token);
    stripe.failNext(3);
    const res = await t.call(ordersRoutes.connectAccountCallback, { token: affiliate.token });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe('The payment provider did not answer. Try again in a minute.');
  });
});
