import { catalogRoutes, ordersMessages, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createBundle, createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  atStripe,
  type Buyer,
  createBuyer,
  deliverEvent,
  ledgerOf,
  purchaseOfSession,
  sandboxPost,
  startProductCheckout,
  TEST_FEES,
} from '../../../test/factories/orders.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { postSignedWebhook } from '../../../test/stripe-events.ts';
import { processAutoRefunds } from './service.ts';

const t = useTestApp(() => startTestApp(TEST_FEES));
let vendor: Awaited<ReturnType<typeof createVendor>>;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'safety-vendor' });
});

const startCheckout = (buyer: Buyer, priceId: string, scheme?: string) =>
  startProductCheckout(t, buyer, vendor.vendorUrl, { priceId, ...(scheme ? { scheme } : {}) });
const purchaseOf = (buyer: Buyer, sessionId: string) => purchaseOfSession(t, buyer, sessionId);

const pay = (sessionId: string) => sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);

/** One buyer starts two checkouts of a product's plan, then pays both: the two-tab case. */
async function payTwice(product: { priceId: string }, scheme?: string) {
  const buyer = await createBuyer(t);
  const first = await startCheckout(buyer, product.priceId, scheme);
  const second = await startCheckout(buyer, product.priceId, scheme);
  await pay(first);
  await pay(second);
  return { buyer, first, second };
}

const count = async (query: ReturnType<typeof sql>) =>
  Number(((await t.database.db.execute(query)).rows[0] as { n: string }).n);

/** Per account, what one purchase's ledger leaves: zero everywhere once it is fully reversed. */
async function netByAccount(purchaseId: string) {
  const net = new Map<string, number>();
  for (const e of await ledgerOf(t, purchaseId)) {
    const key = `${e.account_type}:${e.account_id}`;
    net.set(key, (net.get(key) ?? 0) + e.amount);
  }
  return [...net.values()];
}

describe('a second payment for something already owned', () => {
  it('refunds the second of two one-time checkouts paid in two tabs, grants once and tells the buyer', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Two Tabs Tool', amount: 4_900 });
    const buyer = await createBuyer(t);
    // Both tabs start checkout before either is paid, so checkout's own ownership check passes twice.
    const first = await startCheckout(buyer, product.priceId);
    const second = await startCheckout(buyer, product.priceId);
    expect(first).not.toBe(second);

    expect((await pay(first)).statusCode).toBe(303);
    expect((await pay(second)).statusCode).toBe(303);

    const kept = await purchaseOf(buyer, first);
    const refunded = await purchaseOf(buyer, second);
    expect(kept).toMatchObject({ status: 'paid', refundReason: null });
    expect(refunded).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
      refunded: { amount: 4_900, currency: 'usd' },
      entitlements: [],
    });
    expect(refunded.receiptNumber).toMatch(/^TS-/);

    // Granted once; the duplicate's ledger set is reversed to zero for every account.
    expect(
      await count(sql`select count(*) as n from entitlements
        where user_id = ${buyer.id} and product_id = ${product.id} and status = 'active'`),
    ).toBe(1);
    expect(await netByAccount(refunded.id)).toEqual([0, 0, 0]);
    expect(await count(sql`select sales_count as n from products where id = ${product.id}`)).toBe(
      1,
    );

    // The provider refund was carried out and confirmed by its own webhook, which changed nothing.
    expect(
      await count(sql`select count(*) as n from auto_refunds
        where purchase_id = ${refunded.id} and status = 'done'`),
    ).toBe(1);
    expect((await atStripe(t, refunded.id)).refunds).toHaveLength(1);
    expect(
      await count(sql`select count(*) as n from payment_events
        where purchase_id = ${refunded.id} and type = 'refund'`),
    ).toBe(1);
    expect((await purchaseOf(buyer, second)).refunded.amount).toBe(4_900);

    const mail = t.smtp.inbox.find(
      (m) => m.to.includes(buyer.email) && m.subject.includes('Duplicate payment refunded'),
    );
    expect(mail?.raw).toContain('49.00 USD');
    expect(ordersMessages.duplicateRefunded).toMatch(/refunded it in full/);
  });

  it('grants exactly once when both tabs are paid at the same moment', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Race Tool', amount: 2_500 });
    const buyer = await createBuyer(t);
    const sessions = await Promise.all([1, 2, 3].map(() => startCheckout(buyer, product.priceId)));
    const paid = await Promise.all(sessions.map(pay));
    expect(paid.map((r) => r.statusCode)).toEqual([303, 303, 303]);

    const purchases = await Promise.all(sessions.map((s) => purchaseOf(buyer, s)));
    expect(purchases.map((p) => p.status).sort()).toEqual(['paid', 'refunded', 'refunded']);
    expect(
      await count(sql`select count(*) as n from entitlements
        where user_id = ${buyer.id} and product_id = ${product.id}`),
    ).toBe(1);
    // What the vendor is owed: one sale's share, not three.
    expect(
      await count(sql`select coalesce(sum(amount), 0) as n from ledger_entries
        where account_type = 'vendor' and purchase_id in (select id from purchases where product_id = ${product.id})`),
    ).toBe(2_500 - 155);
  });

  // PGlite's connections share one session, so two transactions cannot interleave there.
  it.runIf(Boolean(inject('pgTemplate')))(
    'grants once when two payments pass the ownership check together (real PostgreSQL)',
    async () => {
      const product = await createProduct(t, vendor.id, { title: 'Interleaved', amount: 2_000 });
      const buyer = await createBuyer(t);
      const sessions = await Promise.all([1, 2].map(() => startCheckout(buyer, product.priceId)));
      // Hold back every grant: each payment's transaction stops at its ownership insert (or, with
      // fulfilment serialised per buyer, the second stops before its check).
      const holder = new pg.Client({ connectionString: t.config.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table ownerships in share row exclusive mode');
        const paying = Promise.all(sessions.map(pay));
        for (let i = 0; i < 500; i++) {
          const waiting = await holder.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
          );
          if ((waiting.rows[0] as { n: number }).n >= 2) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        await holder.query('commit');
        await paying;
      } finally {
        await holder.end();
      }
      const purchases = await Promise.all(sessions.map((s) => purchaseOf(buyer, s)));
      expect(purchases.map((p) => p.status).sort()).toEqual(['paid', 'refunded']);
      expect(
        await count(sql`select count(*) as n from entitlements
          where user_id = ${buyer.id} and product_id = ${product.id}`),
      ).toBe(1);
      expect(await count(sql`select sales_count as n from products where id = ${product.id}`)).toBe(
        1,
      );
    },
  );

  it('refunds a product bought directly after the bundle that contains it was paid', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Bundled Tool', amount: 3_000 });
    const other = await createProduct(t, vendor.id, { title: 'Bundled Other', amount: 3_000 });
    const bundle = await createBundle(t, vendor.id, [product.id, other.id], 5_000);
    const buyer = await createBuyer(t);
    const direct = await startCheckout(buyer, product.priceId);
    const viaBundle = await t.call(ordersRoutes.checkoutBundle, {
      token: buyer.token,
      body: { bundleId: bundle.id },
    });
    expect(viaBundle.statusCode, viaBundle.body).toBe(201);

    await pay(viaBundle.json().sessionId);
    await pay(direct);
    expect(await purchaseOf(buyer, viaBundle.json().sessionId)).toMatchObject({ status: 'paid' });
    expect(await purchaseOf(buyer, direct)).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
    });
  });

  it('ends a duplicate subscription at the provider, refunding its first payment', async () => {
    const product = await createProduct(t, vendor.id, {
      title: 'Twice Subscribed',
      amount: 9_000,
      extraPrices: [1_500],
    });
    const { buyer, first, second } = await payTwice(product, 'month');

    const dup = await purchaseOf(buyer, second);
    expect(dup).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
      refunded: { amount: 1_500 },
      subscription: { status: 'ended' },
    });
    expect(await atStripe(t, dup.id)).toMatchObject({
      subscriptionStatus: 'canceled',
      refunds: [expect.any(Number)],
    });
    expect((await purchaseOf(buyer, first)).subscription.status).toBe('active');
  });

  it('cancels a duplicate trial without refunding anything, since nothing was charged', async () => {
    const product = await createProduct(t, vendor.id, {
      title: 'Twice Trialled',
      amount: 9_000,
      extraPrices: [1_900],
    });
    await t.database.db.execute(
      sql`update prices set trial_days = 7 where product_id = ${product.id} and scheme = 'recurring'`,
    );
    const { buyer, second } = await payTwice(product, 'month');

    const dup = await purchaseOf(buyer, second);
    expect(dup).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
      refunded: { amount: 0 },
    });
    expect(await ledgerOf(t, dup.id)).toEqual([]);
    const row = await t.database.db.execute(
      sql`select payment_ref, subscription_id, status from auto_refunds where purchase_id = ${dup.id}`,
    );
    expect(row.rows[0]).toMatchObject({ payment_ref: null, status: 'done' });
    expect(await atStripe(t, dup.id)).toMatchObject({
      subscriptionStatus: 'canceled',
      refunds: [],
    });
  });

  it('keeps an owed refund until the provider takes it', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Provider Down', amount: 1_000 });
    const buyer = await createBuyer(t);
    const first = await startCheckout(buyer, product.priceId);
    const second = await startCheckout(buyer, product.priceId);
    await pay(first);
    const payments = t.deps.payments;
    const refund = payments.refund.bind(payments);
    let calls = 0;
    payments.refund = async () => {
      calls++;
      throw new Error('provider unavailable');
    };
    try {
      await pay(second);
    } finally {
      payments.refund = refund;
    }
    const dup = await purchaseOf(buyer, second);
    expect(dup).toMatchObject({ status: 'refunded', refundReason: 'duplicate' });
    expect(calls).toBe(1);
    const pending = await t.database.db.execute(
      sql`select status, attempts, last_error from auto_refunds where purchase_id = ${dup.id}`,
    );
    expect(pending.rows[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'provider unavailable',
    });

    // Not due yet: the retry waits out its backoff.
    expect(await processAutoRefunds(t.deps, [dup.id])).toBe(0);
    await t.database.db.execute(
      sql`update auto_refunds set next_attempt_at = now() where purchase_id = ${dup.id}`,
    );
    expect(await processAutoRefunds(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await atStripe(t, dup.id)).refunds).toHaveLength(1);
  });
});

describe('a dispute that arrives before the payment', () => {
  it('is not forgotten: the payment grants nothing and its sale is reversed', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Disputed Early', amount: 6_000 });
    const buyer = await createBuyer(t);
    const sessionId = await startCheckout(buyer, product.priceId);
    const pending = await purchaseOf(buyer, sessionId);

    const dispute = await deliverEvent(t, {
      id: `evt_dispute_${pending.id}`,
      type: 'dispute',
      purchaseId: pending.id,
      paymentRef: `pi_sbx_${sessionId.slice(7)}`,
    });
    expect(dispute.statusCode, dispute.body).toBe(200);
    expect(await pay(sessionId)).toMatchObject({ statusCode: 303 });

    const purchase = await purchaseOf(buyer, sessionId);
    expect(purchase.status).toBe('paid');
    expect(purchase.disputedAt).not.toBeNull();
    expect(purchase.entitlements).toEqual([]);
    expect(await netByAccount(purchase.id)).toEqual([0, 0, 0]);
    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: product.id },
    });
    expect(details.json().product.purchased).toBe(false);
    // And it no longer blocks buying again once the dispute has taken the first payment back.
    expect(
      await count(sql`select count(*) as n from ownerships where user_id = ${buyer.id}
        and product_id = ${product.id} and revoked_at is null`),
    ).toBe(0);
  });
});

describe('signed webhook bodies that are not events', () => {
  const signed = (body: string) => postSignedWebhook(t, body, t.config.STRIPE_WEBHOOK_SECRET!);
  const session = {
    id: 'cs_test_shape',
    object: 'checkout.session',
    metadata: { purchase_id: 'pur_missing' },
    payment_status: 'paid',
    payment_intent: 'pi_x',
    amount_total: 100,
    currency: 'usd',
  };
  const valid = {
    id: 'evt_shape',
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: { object: session },
  };
  const withSession = (fields: Record<string, unknown>) =>
    JSON.stringify({ ...valid, data: { object: { ...session, ...fields } } });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"event"'],
    ['a null id', JSON.stringify({ ...valid, id: null })],
    ['no object', JSON.stringify({ ...valid, data: {} })],
    ['a text amount', withSession({ amount_total: 'lots' })],
    ['a bad date', JSON.stringify({ ...valid, created: 'yesterday' })],
    ['a NUL in a reference', withSession({ payment_intent: 'pi_\u0000' })],
    ['truncated JSON', '{"id":'],
  ])('answers 400 for %s and records nothing', async (_name, body) => {
    const before = await count(sql`select count(*) as n from payment_events`);
    const res = await signed(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: 'Webhook body is not a valid event.',
      code: 'bad_request',
    });
    expect(await count(sql`select count(*) as n from payment_events`)).toBe(before);
  });

  it('takes an event of a type it does not read (as Stripe expects) and records nothing', async () => {
    const before = await count(sql`select count(*) as n from payment_events`);
    const res = await signed(JSON.stringify({ ...valid, type: 'charge.exploded' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await count(sql`select count(*) as n from payment_events`)).toBe(before);
  });
});
