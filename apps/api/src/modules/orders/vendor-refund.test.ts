import {
  ordersRoutes,
  vendorSalesMessages,
  vendorSalesRoutes,
  type VendorCustomer,
  type VendorSale,
  type VendorSaleDetail,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectCursorsRefused, expectRefused, UNSTORABLE_TIMES } from '../../../test/cursors.ts';
import { createProduct, type Vendor } from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import {
  atStripe,
  buyPaidProduct,
  createBuyer,
  purchaseIdOfSession,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { startStripeSandbox, type StripeSandboxHandle } from '../../../test/stripe-sandbox.ts';
import { retryVendorRefunds } from './vendor-refund-retry.ts';

// A vendor refunds their sales through the Stripe adapter, over HTTP on a real database: the Stripe
// sandbox sends its `charge.refunded` event back through the webhook, and the ledger, the sale and
// the buyer's access follow from it.

let stripe: StripeSandboxHandle;
let vendor: Vendor;
let tool: Awaited<ReturnType<typeof createProduct>>;
let feed: Awaited<ReturnType<typeof createProduct>>;
let vendorToken: string;
let otherToken: string;

const t = useTestApp(async () => {
  stripe = await startStripeSandbox({ PLATFORM_FEE_BPS: '1000', PLATFORM_FEE_FIXED: '0' });
  return stripe.t;
});

beforeAll(async () => {
  ({ vendor, vendorToken, otherToken } = await vendorAndOther(t, {
    vendor: { displayName: 'Refund Labs' },
  }));
  tool = await createProduct(t, vendor.id, { kind: 'app', title: 'Breakout Tool', amount: 4_000 });
  feed = await createProduct(t, vendor.id, {
    kind: 'indicator',
    title: 'Signal Feed',
    amount: 9_000,
    extraPrices: [2_000],
  });
});

const refund = (
  id: string,
  body: { amount?: number | null; reason?: unknown },
  options: { token?: string; key?: string } = {},
) =>
  t.call(vendorSalesRoutes.vendorRefund, {
    token: options.token ?? vendorToken,
    params: { id },
    body: { reason: 'Customer asked', ...body },
    ...(options.key ? { headers: { 'idempotency-key': options.key } } : {}),
  });

const readSale = (id: string, token: string) =>
  t.call(vendorSalesRoutes.vendorSale, { token, params: { id } });
const detail = async (id: string, token = vendorToken) => {
  const res = await readSale(id, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sale as VendorSaleDetail;
};

async function accessOf(purchaseId: string) {
  await t.jobs.settle();
  const row = await t.database.db.execute<{ active: number; owned: number }>(sql`select
      (select count(*)::int from entitlements e where e.purchase_id = ${purchaseId} and e.status = 'active') as active,
      (select count(*)::int from ownerships o where o.source = 'purchase:' || ${purchaseId}
        and o.revoked_at is null) as owned`);
  return row.rows[0]!;
}

/** The refunds Stripe holds for a purchase, oldest first. */
const sandboxRefunds = async (purchaseId: string) =>
  (
    await t.database.db.execute<{ amount: number }>(
      sql`select (data->>'amount')::int as amount from sandbox_stripe_objects
        where type = 'refund' and data->'metadata'->>'purchase_id' = ${purchaseId} order by seq`,
    )
  ).rows;

describe('who may refund', () => {
  it('refuses a buyer (403), another vendor’s or an unpaid sale (404)', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    const buyer = await createBuyer(t);
    const forbidden = await refund(sale.purchaseId, {}, { token: buyer.token });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('forbidden');

    const foreign = await refund(sale.purchaseId, {}, { token: otherToken });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(vendorSalesMessages.saleNotFound);
    expect((await readSale(sale.purchaseId, otherToken)).statusCode).toBe(404);
    expect((await readSale(sale.purchaseId, buyer.token)).statusCode).toBe(403);

    const unpaidBuyer = await createBuyer(t);
    const sessionId = await startProductCheckout(t, unpaidBuyer, vendor.vendorUrl, {
      priceId: tool.priceId,
    });
    const unpaid = await purchaseIdOfSession(t, sessionId);
    expect((await refund(unpaid, {})).statusCode).toBe(404);
    expect((await refund('pur_nothing_here', {})).statusCode).toBe(404);
    // Nothing moved.
    expect((await detail(sale.purchaseId)).refunded.amount).toBe(0);
  });

  it('checks the body with the contract’s messages', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    const noReason = await refund(sale.purchaseId, { reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields.reason).toBe(vendorSalesMessages.refundReasonRequired);
    for (const amount of [0, -5, 12.5]) {
      const bad = await refund(sale.purchaseId, { amount });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.amount).toBe(vendorSalesMessages.refundAmountWhole);
    }
    const badKey = await refund(sale.purchaseId, {}, { key: 'short' });
    expect(badKey.statusCode).toBe(400);
  });
});

describe('refunding', () => {
  it('refunds part, then the rest: ledger share reversed, access kept, then ended', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    expect(await accessOf(sale.purchaseId)).toMatchObject({ owned: 1 });
    const before = await detail(sale.purchaseId);
    expect(before.refundable).toEqual({ amount: 4_000, currency: 'usd' });
    expect(before.ledger).toMatchObject({
      gross: { amount: 4_000 },
      fees: { amount: 400 },
      affiliate: { amount: 0 },
      net: { amount: 3_600 },
    });

    const part = await refund(sale.purchaseId, { amount: 1_000, reason: 'Late delivery' });
    expect(part.statusCode, part.body).toBe(200);
    const body = part.json() as { sale: VendorSaleDetail; refund: { status: string } };
    expect(body.refund).toMatchObject({
      status: 'succeeded',
      amount: { amount: 1_000 },
      reason: 'Late delivery',
    });
    expect(body.sale).toMatchObject({
      status: 'paid',
      refunded: { amount: 1_000 },
      pendingRefund: { amount: 0 },
      refundable: { amount: 3_000 },
    });
    // A quarter of the payment back: a quarter of each share reversed.
    expect(body.sale.ledger).toMatchObject({
      refunded: { amount: 1_000 },
      fees: { amount: 300 },
      net: { amount: 2_700 },
    });
    expect(body.sale.payments).toEqual([
      expect.objectContaining({
        amount: { amount: 4_000, currency: 'usd' },
        refunded: { amount: 1_000, currency: 'usd' },
      }),
    ]);
    expect(await accessOf(sale.purchaseId)).toMatchObject({ owned: 1 });

    const tooMuch = await refund(sale.purchaseId, { amount: 3_001 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error).toBe(
      'You can refund at most $30.00: that is what is left of this payment.',
    );
    expect(tooMuch.json().fields.amount).toBe(tooMuch.json().error);

    const rest = await refund(sale.purchaseId, { reason: 'Closing the account' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().refund.amount.amount).toBe(3_000);
    expect(rest.json().sale).toMatchObject({
      status: 'refunded',
      refunded: { amount: 4_000 },
      refundable: { amount: 0 },
    });
    expect(rest.json().sale.ledger).toMatchObject({ fees: { amount: 0 }, net: { amount: 0 } });
    expect(await accessOf(sale.purchaseId)).toEqual({ active: 0, owned: 0 });
    expect((await sandboxRefunds(sale.purchaseId)).map((r) => r.amount)).toEqual([1_000, 3_000]);

    const again = await refund(sale.purchaseId, { amount: 1 });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe(vendorSalesMessages.refundAlreadyFull);
    // The buyer sees it on their order too.
    const own = await t.call(ordersRoutes.purchaseDetails, {
      token: sale.token,
      params: { id: sale.purchaseId },
    });
    expect(own.json().purchase).toMatchObject({ status: 'refunded', refunded: { amount: 4_000 } });
  });

  it('is idempotent: the same key answers the first refund; another body under it is refused', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    const key = `refund-key-${sale.purchaseId}`;
    const first = await refund(sale.purchaseId, { amount: 500 }, { key });
    expect(first.statusCode, first.body).toBe(200);
    const second = await refund(sale.purchaseId, { amount: 500 }, { key });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().refund.id).toBe(first.json().refund.id);
    const mismatch = await refund(sale.purchaseId, { amount: 700 }, { key });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().error).toBe(vendorSalesMessages.refundIdempotencyMismatch);
    // A double click without a key is one refund too.
    const clicks = await Promise.all([
      refund(sale.purchaseId, { amount: 200, reason: 'Goodwill' }),
      refund(sale.purchaseId, { amount: 200, reason: 'Goodwill' }),
    ]);
    expect(clicks.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(clicks[0]!.json().refund.id).toBe(clicks[1]!.json().refund.id);
    expect((await detail(sale.purchaseId)).refunded.amount).toBe(700);
    expect((await sandboxRefunds(sale.purchaseId)).map((r) => r.amount)).toEqual([500, 200]);
  });

  it('refunds once when two refunds of the rest race', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        refund(
          sale.purchaseId,
          { reason: `Refund the rest ${i}` },
          { key: `race-${i}-${sale.purchaseId}` },
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422))
      expect(r.json().error).toMatch(/refunded in full|at most/);
    const after = await detail(sale.purchaseId);
    expect(after).toMatchObject({ status: 'refunded', refunded: { amount: 4_000 } });
    expect(after.refunds).toHaveLength(1);
    expect(await sandboxRefunds(sale.purchaseId)).toHaveLength(1);
    const ledger = await t.database.db.execute<{ n: number }>(
      sql`select coalesce(sum(amount), 0)::int as n from ledger_entries
        where purchase_id = ${sale.purchaseId} and account_type = 'clearing'`,
    );
    expect(ledger.rows[0]!.n).toBe(0);
  });

  it('holds a refund the provider has not confirmed, and asks again under the same key', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    // The provider takes the refund but its event cannot reach us yet.
    stripe.holdEvents();
    const key = `held-${sale.purchaseId}`;
    const res = await refund(
      sale.purchaseId,
      { amount: 1_500, reason: 'Wrong plan bought' },
      { key },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund.status).toBe('pending');
    // What Stripe was asked, under the refund's own idempotency key.
    const asked = (await stripe.requestsTo('/v1/refunds')).filter(
      (r) => r.body['metadata[purchase_id]'] === sale.purchaseId,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body).toMatchObject({
      payment_intent: expect.stringMatching(/^pi_/),
      amount: '1500',
      reason: 'requested_by_customer',
      'metadata[vendor_reason]': 'Wrong plan bought',
    });
    expect(asked[0]!.idempotencyKey).toBe(`vendor-refund:${res.json().refund.id}`);
    expect(res.json().sale).toMatchObject({
      refunded: { amount: 0 },
      pendingRefund: { amount: 1_500 },
      refundable: { amount: 2_500 },
    });
    // What is held cannot be refunded twice.
    const over = await refund(sale.purchaseId, { amount: 2_600 });
    expect(over.statusCode).toBe(422);
    expect(
      (await refund(sale.purchaseId, { amount: 1_500, reason: 'Wrong plan bought' }, { key }))
        .statusCode,
    ).toBe(200);
    expect(await sandboxRefunds(sale.purchaseId)).toHaveLength(1);

    // The provider's event arrives: the refund is settled.
    expect(await stripe.deliverEvents()).toBeGreaterThan(0);
    const settled = await detail(sale.purchaseId);
    expect(settled).toMatchObject({
      refunded: { amount: 1_500 },
      pendingRefund: { amount: 0 },
      refundable: { amount: 2_500 },
    });
    expect(settled.refunds[0]).toMatchObject({ status: 'succeeded' });
  });

  it('refunds a subscription’s payment in full and cancels the subscription', async () => {
    const { purchaseId: id } = await buyPaidProduct(
      t,
      vendor.vendorUrl,
      feed.extraPriceIds[0]!,
      'month',
    );
    const res = await refund(id, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sale).toMatchObject({ status: 'refunded', refunded: { amount: 2_000 } });
    expect(res.json().sale.subscription.status).toBe('ended');
    expect(await atStripe(t, id)).toMatchObject({
      subscriptionStatus: 'canceled',
      refunds: [2_000],
    });
  });
});

describe('sales, one sale and customers', () => {
  it('filters the sales list and pages the customers, searchable', async () => {
    const a = await buyPaidProduct(t, vendor.vendorUrl, feed.priceId);
    // Stripe dates events to the second: a's sale a minute earlier, so "newest first" is b.
    await t.database.db.execute(sql`update purchases set paid_at = paid_at - interval '1 minute',
      created_at = created_at - interval '1 minute' where id = ${a.purchaseId}`);
    const b = await buyPaidProduct(t, vendor.vendorUrl, feed.priceId);
    expect((await refund(b.purchaseId, { amount: 100 })).statusCode).toBe(200);
    const list = async (query: Record<string, string>) => {
      const res = await t.call(ordersRoutes.vendorSales, { token: vendorToken, query });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().sales as VendorSale[]).map((s) => s.id);
    };
    const ofFeed = await list({ productId: feed.id, limit: '50' });
    expect(ofFeed).toEqual(expect.arrayContaining([a.purchaseId, b.purchaseId]));
    expect(ofFeed.length).toBeGreaterThanOrEqual(2);
    const partial = await list({ status: 'partially_refunded', limit: '50' });
    expect(partial).toContain(b.purchaseId);
    expect(partial).not.toContain(a.purchaseId);
    const refunded = await list({ status: 'refunded', limit: '50' });
    expect(refunded).not.toContain(b.purchaseId);
    const future = await list({ from: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future).toEqual([]);
    const bad = await t.call(ordersRoutes.vendorSales, {
      token: vendorToken,
      query: { status: 'lost' },
    });
    expect(bad.statusCode).toBe(400);

    // Customers: every buyer once, paged, newest first.
    const seen: VendorCustomer[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.call(vendorSalesRoutes.vendorCustomers, {
        token: vendorToken,
        query: { limit: '2', ...(cursor ? { cursor } : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().customers);
      cursor = res.json().nextCursor ?? undefined;
    } while (cursor);
    const emails = seen.map((c) => c.buyer.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails).toEqual(expect.arrayContaining([a.email, b.email]));
    const bRow = seen.find((c) => c.buyer.email === b.email)!;
    expect(bRow).toMatchObject({ purchases: 1, spent: [{ amount: 8_900, currency: 'usd' }] });
    expect(emails.indexOf(b.email)).toBeLessThan(emails.indexOf(a.email));

    const found = await t.call(vendorSalesRoutes.vendorCustomers, {
      token: vendorToken,
      query: { q: a.email.toUpperCase() },
    });
    expect(found.json().customers.map((c: VendorCustomer) => c.buyer.email)).toEqual([a.email]);
    const none = await t.call(vendorSalesRoutes.vendorCustomers, {
      token: otherToken,
      query: { q: a.email },
    });
    expect(none.json().customers).toEqual([]);
    const buyer = await createBuyer(t);
    expect(
      (await t.call(vendorSalesRoutes.vendorCustomers, { token: buyer.token, query: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.call(vendorSalesRoutes.vendorCustomers, {
          token: vendorToken,
          query: { cursor: 'nonsense' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('times PostgreSQL refuses (issue 26)', () => {
  it('answers 400 naming the field for the sales filters and forged sales or customer cursors', async () => {
    for (const at of UNSTORABLE_TIMES.filter((x) => x.includes('T')))
      for (const field of ['from', 'to'] as const)
        expectRefused(
          await t.call(ordersRoutes.vendorSales, { token: vendorToken, query: { [field]: at } }),
          field,
          `${field}=${at}`,
        );
    for (const route of [ordersRoutes.vendorSales, vendorSalesRoutes.vendorCustomers])
      await expectCursorsRefused(
        (cursor) => t.call(route, { token: vendorToken, query: { cursor } }),
        [],
        route.path,
      );
  });
});

describe('when Stripe refuses or is down', () => {
  it('turns Stripe’s refusal into a 422 and frees the held amount; an outage holds it for the retry', async () => {
    const sale = await buyPaidProduct(t, vendor.vendorUrl, tool.priceId);
    // Stripe knows the charge as mostly refunded (from its dashboard; the event is not here yet).
    await t.database.db.execute(sql`update sandbox_stripe_objects
      set data = jsonb_set(data, '{amount_refunded}', '3000')
      where type = 'charge' and data->'metadata'->>'purchase_id' = ${sale.purchaseId}`);
    const refused = await refund(sale.purchaseId, { amount: 2_000, reason: 'Duplicate order' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toBe(
      `${vendorSalesMessages.refundProviderRefused} Refund amount (2000) is greater than unrefunded amount on charge (1000).`,
    );
    const after = await detail(sale.purchaseId);
    expect(after).toMatchObject({ pendingRefund: { amount: 0 }, refundable: { amount: 4_000 } });
    expect(after.refunds[0]).toMatchObject({ status: 'failed' });

    // The SDK retries twice: three 500s in a row are an outage.
    stripe.failNext(3);
    const down = await refund(sale.purchaseId, { amount: 500, reason: 'Goodwill' });
    expect(down.statusCode).toBe(503);
    expect(down.json().error).toBe(vendorSalesMessages.refundProviderFailed);
    // Its amount stays held; the retry job asks Stripe again under the same key, once it is due.
    const held = await detail(sale.purchaseId);
    expect(held.pendingRefund.amount).toBe(500);
    const id = held.refunds[0]!.id;
    expect(await retryVendorRefunds(t.deps)).toBe(0);
    await t.database.db.execute(
      sql`update vendor_refunds set next_attempt_at = now() where id = ${id}`,
    );
    expect(await retryVendorRefunds(t.deps)).toBe(1);
    expect(stripe.failedKeys.slice(-3)).toEqual(Array(3).fill(`vendor-refund:${id}`));
    const asked = (await stripe.requestsTo('/v1/refunds')).filter(
      (r) => r.idempotencyKey === `vendor-refund:${id}`,
    );
    expect(asked.map((r) => r.body.amount)).toEqual(['500']);
    expect(await sandboxRefunds(sale.purchaseId)).toEqual([{ amount: 500 }]);
  });
});
