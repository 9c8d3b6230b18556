import { catalogRoutes, ordersMessages, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBundle,
  createProduct,
  createVendor,
  grantOwnership,
  requirePrerequisite,
} from '../../../test/factories/catalog.ts';
import {
  atStripe,
  type Buyer,
  createBuyer,
  createCoupon,
  createReferral,
  deliverEvent,
  ledgerOf,
  purchaseIdOfSession,
  sandboxPost,
  TEST_FEES,
} from '../../../test/factories/orders.ts';
import { createUser, userToken } from '../../../test/factories/users.ts';
import { expectCursorsRefused, expectRefused } from '../../../test/cursors.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { endLapsedSubscriptions, expireCheckouts, LAPSE_GRACE_HOURS } from './service.ts';

const t = useTestApp(() => startTestApp(TEST_FEES));
let vendor: Awaited<ReturnType<typeof createVendor>>;
let indicator: Awaited<ReturnType<typeof createProduct>>;
let course: Awaited<ReturnType<typeof createProduct>>;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'orders-vendor' });
  indicator = await createProduct(t, vendor.id, {
    title: 'Order Flow Pro',
    amount: 10_000,
    extraPrices: [2_000],
  });
  course = await createProduct(t, vendor.id, {
    title: 'Course One',
    kind: 'course',
    amount: 5_000,
  });
});

function checkout(
  buyer: Pick<Buyer, 'token'>,
  body: Record<string, unknown>,
  options: { vendorUrl?: string; key?: string } = {},
) {
  return t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl: options.vendorUrl ?? vendor.vendorUrl },
    body,
    ...(options.key ? { headers: { 'idempotency-key': options.key } } : {}),
  });
}

/** A purchase as `token` reads it: by its checkout session, and by its id. */
const readStatus = (token: string, sessionId: string) =>
  t.call(ordersRoutes.purchaseStatus, { token, params: { id: sessionId } });
const readOrder = (token: string, id: string) =>
  t.call(ordersRoutes.purchaseDetails, { token, params: { id } });

async function status(buyer: Buyer, sessionId: string) {
  const res = await readStatus(buyer.token, sessionId);
  expect(res.statusCode).toBe(200);
  return res.json().purchase;
}

async function buy(buyer: Buyer, body: Record<string, unknown>) {
  const res = await checkout(buyer, body);
  expect(res.statusCode, res.body).toBe(201);
  const { sessionId } = res.json();
  const paid = await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
  expect(paid.statusCode).toBe(303);
  return status(buyer, sessionId);
}

async function orderOf(buyer: Buyer, id: string) {
  const res = await readOrder(buyer.token, id);
  expect(res.statusCode).toBe(200);
  return res.json().purchase;
}

const count = async (query: ReturnType<typeof sql>) =>
  Number(((await t.database.db.execute(query)).rows[0] as { n: string }).n);

describe('checkout through the sandbox', () => {
  it('takes a one-time product from checkout to a paid order with receipt, ledger and ownership', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 25 });
    const res = await checkout(buyer, {
      priceId: indicator.priceId,
      coupon: coupon.code.toLowerCase(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { url, sessionId } = res.json();
    expect(url).toMatch(new RegExp(`/sandbox/checkout/${sessionId}$`));

    expect((await status(buyer, sessionId)).status).toBe('pending');
    const pageRes = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('Order Flow Pro');
    expect(pageRes.body).toContain('$75.00');

    const paid = await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(`/orders/status?session_id=${sessionId}`);

    const purchase = await status(buyer, sessionId);
    expect(purchase).toMatchObject({
      status: 'paid',
      scheme: 'one_time',
      subtotal: { amount: 10_000, currency: 'usd' },
      discount: { amount: 2_500 },
      total: { amount: 7_500 },
      coupon: { code: coupon.code, duration: 'once' },
      subscription: null,
      item: { type: 'product', id: indicator.id, priceId: indicator.priceId },
    });
    expect(purchase.receiptNumber).toMatch(/^TS-\d{4}-\d{6}$/);
    expect(purchase.entitlements).toEqual([
      expect.objectContaining({ kind: 'access', productId: indicator.id, status: 'active' }),
    ]);

    // 5% + 30 of 7,500 is 405; the vendor gets the rest; the set sums to zero.
    const ledger = await ledgerOf(t, purchase.id);
    expect(ledger.map((e) => [e.entry_type, e.amount])).toEqual([
      ['platform_fee', 405],
      ['sale', -7_500],
      ['vendor_share', 7_095],
    ]);
    expect(t.smtp.inbox.filter((m) => m.subject.includes(purchase.receiptNumber))).toHaveLength(1);

    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: indicator.id },
    });
    expect(details.json().product.purchased).toBe(true);
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(1);

    const again = await checkout(buyer, { priceId: indicator.priceId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', error: ordersMessages.alreadyOwned });
  });

  it('cancel leaves no order and gives the coupon redemption back', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { maxRedemptions: 1 });
    const res = await checkout(buyer, { priceId: course.priceId, coupon: coupon.code });
    const { sessionId } = res.json();
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(1);
    const cancelled = await sandboxPost(t, `/sandbox/checkout/${sessionId}/cancel`);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toMatch(/\/p\/.+\?checkout=cancelled$/);
    expect((await status(buyer, sessionId)).status).toBe('cancelled');
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(0);
    const list = await t.call(ordersRoutes.purchaseList, { token: buyer.token });
    expect(list.json().purchases).toEqual([]);
    expect(await count(sql`select count(*) as n from ownerships where user_id = ${buyer.id}`)).toBe(
      0,
    );
  });

  it('holds one live checkout per buyer and limited coupon; the buyer may retry once it expires', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { maxRedemptions: 2 });
    const first = await checkout(buyer, { priceId: course.priceId, coupon: coupon.code });
    const second = await checkout(buyer, { priceId: indicator.priceId, coupon: coupon.code });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(422);
    expect(second.json().fields.coupon).toBe(ordersMessages.couponHeld);
    expect((await status(buyer, first.json().sessionId)).status).toBe('pending');
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(1);
    await t.database.db.execute(
      sql`update purchases set expires_at = now() - interval '1 minute'
        where session_id = ${first.json().sessionId}`,
    );
    const retry = await checkout(buyer, { priceId: indicator.priceId, coupon: coupon.code });
    expect(retry.statusCode, retry.body).toBe(201);
    expect((await status(buyer, first.json().sessionId)).status).toBe('cancelled');
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(1);
  });

  it('the expiry job cancels unpaid checkouts past their expiry and releases their coupons', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { maxRedemptions: 3 });
    const res = await checkout(buyer, { priceId: course.priceId, coupon: coupon.code });
    await t.database.db.execute(
      sql`update purchases set expires_at = now() - interval '1 minute' where session_id = ${res.json().sessionId}`,
    );
    expect(await expireCheckouts(t.database.db)).toBeGreaterThanOrEqual(1);
    expect((await status(buyer, res.json().sessionId)).status).toBe('cancelled');
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(0);
    expect(await expireCheckouts(t.database.db)).toBe(0);
  });

  it('refuses what cannot be bought, with a clear 4xx and nothing recorded', async () => {
    const buyer = await createBuyer(t);
    const inactive = await createProduct(t, vendor.id, { isActive: false });
    const needsBase = await createProduct(t, vendor.id, { title: 'Add-on' });
    await requirePrerequisite(t, needsBase.id, indicator.id);
    const expired = await createCoupon(t, vendor.id, { expiresAt: new Date(Date.now() - 1000) });
    const scoped = await createCoupon(t, vendor.id, { productId: course.id });
    const other = await createVendor(t);
    const foreign = await createCoupon(t, other.id);

    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ priceId: inactive.priceId }, 422, ordersMessages.inactive],
      [{ priceId: 'price_nope' }, 422, ordersMessages.unknownPlan],
      [{ priceId: indicator.priceId, scheme: 'year' }, 422, ordersMessages.unknownPlan],
      [{ priceId: needsBase.priceId }, 422, ordersMessages.missingPrerequisite],
      [{ priceId: indicator.priceId, coupon: 'NOPE' }, 422, ordersMessages.couponInvalid],
      [{ priceId: indicator.priceId, coupon: expired.code }, 422, ordersMessages.couponExpired],
      [
        { priceId: indicator.priceId, coupon: scoped.code },
        422,
        ordersMessages.couponNotApplicable,
      ],
      [{ priceId: indicator.priceId, coupon: foreign.code }, 422, ordersMessages.couponInvalid],
      [{ priceId: indicator.priceId, coupon: 'bad code!' }, 400, ''],
    ];
    for (const [body, code, message] of cases) {
      const res = await checkout(buyer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(code);
      expect(res.json().error).toContain(message);
    }
    const unsigned = await t.call(ordersRoutes.checkoutProduct, {
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: indicator.priceId },
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await count(sql`select count(*) as n from purchases where buyer_id = ${buyer.id}`)).toBe(
      0,
    );
  });

  it('sells a subscription plan picked by scheme; cancel in the portal keeps access to period end', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, {
      type: 'amount',
      amountOff: 500,
      duration: 'once',
    });
    const purchase = await buy(buyer, {
      priceId: indicator.priceId,
      scheme: 'month',
      coupon: coupon.code,
    });
    expect(purchase).toMatchObject({
      status: 'paid',
      scheme: 'month',
      total: { amount: 1_500 },
      subscription: { status: 'active', renewalAmount: { amount: 2_000 } },
    });
    const periodEnd = purchase.subscription.currentPeriodEnd;
    expect(Date.parse(periodEnd)).toBeGreaterThan(Date.now() + 27 * 86_400_000);

    const portal = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(portal.statusCode).toBe(200);
    const portalPath = new URL(portal.json().session.url).pathname;
    const portalPage = await t.app.inject({ method: 'GET', url: portalPath });
    expect(portalPage.body).toContain('Cancel subscription');
    const { subscriptionId, sessionId } = await atStripe(t, purchase.id);
    await sandboxPost(t, `${portalPath}/${subscriptionId}/cancel`);

    const cancelling = await orderOf(buyer, purchase.id);
    expect(cancelling.subscription.status).toBe('cancelling');
    expect(cancelling.entitlements[0]).toMatchObject({ status: 'active', endsAt: periodEnd });

    await sandboxPost(t, `${portalPath}/${subscriptionId}/resume`);
    const resumed = await orderOf(buyer, purchase.id);
    expect(resumed.subscription.status).toBe('active');
    expect(resumed.entitlements[0].endsAt).toBeNull();

    // A renewal charges the full price (the coupon was first-payment-only) and writes its own set.
    await sandboxPost(t, `/sandbox/payments/${sessionId}/renew`);
    const sales = (await ledgerOf(t, purchase.id)).filter((e) => e.entry_type === 'sale');
    expect(sales.map((e) => e.amount).sort((a, b) => a - b)).toEqual([-2_000, -1_500]);

    await sandboxPost(t, `/sandbox/payments/${sessionId}/end`);
    const ended = await orderOf(buyer, purchase.id);
    expect(ended.subscription.status).toBe('ended');
    expect(ended.entitlements[0].status).toBe('ended');
    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: indicator.id },
    });
    expect(details.json().product.purchased).toBe(false);
  });

  it('ends a cancelled subscription the provider never reported ended, a grace period after its end', async () => {
    const buyer = await createBuyer(t);
    const purchase = await buy(buyer, { priceId: indicator.priceId, scheme: 'month' });
    const portal = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    const portalPath = new URL(portal.json().session.url).pathname;
    const { subscriptionId } = await atStripe(t, purchase.id);
    await sandboxPost(t, `${portalPath}/${subscriptionId}/cancel`);
    const setPeriodEnd = (hoursAgo: number) =>
      t.database.db.execute(sql`update purchases
        set current_period_end = now() - make_interval(hours => ${hoursAgo}) where id = ${purchase.id}`);
    const purchased = async () =>
      (
        await t.call(catalogRoutes.productDetails, {
          token: buyer.token,
          query: { id: indicator.id },
        })
      ).json().product.purchased;

    // Within the grace period the provider's own event may still come: nothing changes.
    await setPeriodEnd(LAPSE_GRACE_HOURS - 1);
    await endLapsedSubscriptions(t.deps);
    expect((await orderOf(buyer, purchase.id)).subscription.status).toBe('cancelling');
    expect(await purchased()).toBe(true);

    await setPeriodEnd(LAPSE_GRACE_HOURS + 1);
    expect(await endLapsedSubscriptions(t.deps)).toBeGreaterThanOrEqual(1);
    const ended = await orderOf(buyer, purchase.id);
    expect(ended.subscription.status).toBe('ended');
    expect(ended.entitlements.every((e: { status: string }) => e.status === 'ended')).toBe(true);
    expect(await purchased()).toBe(false);
    // Run again: nothing left to end for this purchase.
    await endLapsedSubscriptions(t.deps);
    expect((await orderOf(buyer, purchase.id)).subscription.status).toBe('ended');
  });

  it('sells a bundle with entitlements for each product and credits a referral', async () => {
    const buyer = await createBuyer(t);
    const affiliate = await createUser(t);
    const refId = await createReferral(t, vendor.id, affiliate.id, 1000);
    const bundle = await createBundle(t, vendor.id, [indicator.id, course.id], 12_000);
    const res = await t.call(ordersRoutes.checkoutBundle, {
      token: buyer.token,
      body: { bundleId: bundle.id, refId },
    });
    expect(res.statusCode, res.body).toBe(201);
    await sandboxPost(t, `/sandbox/checkout/${res.json().sessionId}/pay`);
    const purchase = await status(buyer, res.json().sessionId);
    expect(purchase.item).toMatchObject({ type: 'bundle', id: bundle.id });
    expect(
      purchase.entitlements.map((e: { kind: string; productId: string }) => [e.productId, e.kind]),
    ).toEqual(
      expect.arrayContaining([
        [indicator.id, 'access'],
        [course.id, 'access'],
        [course.id, 'course_enrolment'],
      ]),
    );
    const ledger = await ledgerOf(t, purchase.id);
    expect(ledger.find((e) => e.entry_type === 'affiliate_commission')).toMatchObject({
      account_id: affiliate.id,
      amount: 1_200,
    });
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(0);
    const list = await t.call(catalogRoutes.sellerProductList, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(list.json().products.find((p: { id: string }) => p.id === course.id).purchased).toBe(
      true,
    );
  });

  it('ignores a self-referral and a referral id of another vendor', async () => {
    const buyer = await createBuyer(t);
    const own = await createReferral(t, vendor.id, buyer.id);
    const purchase = await buy(buyer, { priceId: course.priceId, refId: own });
    expect(
      (await ledgerOf(t, purchase.id)).some((e) => e.entry_type === 'affiliate_commission'),
    ).toBe(false);
  });

  it('keeps orders private: another buyer gets 404', async () => {
    const buyer = await createBuyer(t);
    const purchase = await buy(buyer, { priceId: course.priceId });
    const stranger = await createBuyer(t);
    expect((await readOrder(stranger.token, purchase.id)).statusCode).toBe(404);
    expect((await readStatus(stranger.token, purchase.sessionId)).statusCode).toBe(404);
  });

  it('lists orders newest first, paged', async () => {
    const buyer = await createBuyer(t);
    const bought: string[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await createProduct(t, vendor.id, { title: `Paged ${i}` });
      bought.push((await buy(buyer, { priceId: p.priceId })).id);
    }
    const first = await t.call(ordersRoutes.purchaseList, {
      token: buyer.token,
      query: { limit: '2' },
    });
    expect(first.json().purchases.map((p: { id: string }) => p.id)).toEqual([bought[2], bought[1]]);
    const second = await t.call(ordersRoutes.purchaseList, {
      token: buyer.token,
      query: { limit: '2', cursor: first.json().nextCursor },
    });
    expect(second.json()).toMatchObject({ nextCursor: null });
    expect(second.json().purchases.map((p: { id: string }) => p.id)).toEqual([bought[0]]);
    const bad = await t.call(ordersRoutes.purchaseList, {
      token: buyer.token,
      query: { cursor: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 400 naming `cursor` for a forged purchases cursor, times PostgreSQL refuses included (issue 26)', async () => {
    const buyer = await createBuyer(t);
    await expectCursorsRefused((cursor) =>
      t.call(ordersRoutes.purchaseList, { token: buyer.token, query: { cursor } }),
    );
  });

  it("refuses another list's cursor, signed as it is (the outside probe paged a vendor's sales with a buyer-list cursor)", async () => {
    // One person who buys and sells: their own orders page gives a cursor their sales list must refuse.
    const user = await createUser(t, { roles: ['buyer', 'vendor'] });
    await createVendor(t, { userId: user.id });
    const token = await userToken(t, user, ['buyer', 'vendor']);
    await buy({ token } as Buyer, { priceId: indicator.priceId });
    await buy({ token } as Buyer, { priceId: course.priceId });
    const mine = await t.call(ordersRoutes.purchaseList, { token, query: { limit: '1' } });
    expect(mine.statusCode).toBe(200);
    const cursor = mine.json().nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expectRefused(
      await t.call(ordersRoutes.vendorSales, { token, query: { cursor } }),
      'cursor',
      'a buyer-list cursor',
    );
    const next = await t.call(ordersRoutes.purchaseList, { token, query: { limit: '1', cursor } });
    expect(next.statusCode).toBe(200);
  });

  it('previews a coupon with the discounted total', async () => {
    const coupon = await createCoupon(t, vendor.id, { percentOff: 20, duration: 'forever' });
    const res = await t.call(ordersRoutes.previewCoupon, {
      query: { code: coupon.code, priceId: indicator.priceId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().coupon).toMatchObject({
      subtotal: { amount: 10_000 },
      discount: { amount: 2_000 },
      total: { amount: 8_000 },
      duration: 'forever',
    });
    const bad = await t.call(ordersRoutes.previewCoupon, {
      query: { code: 'NOPE', priceId: indicator.priceId },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ fields: { coupon: ordersMessages.couponInvalid } });
  });
});

describe('idempotency', () => {
  it('returns one provider session for retries with the same Idempotency-Key, also concurrent ones', async () => {
    const buyer = await createBuyer(t);
    const key = `checkout-${Date.now()}`;
    // With a limited coupon too: a request with the same key is not a second checkout holding it.
    const coupon = await createCoupon(t, vendor.id, { maxRedemptions: 5 });
    const body = { priceId: course.priceId, coupon: coupon.code };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => checkout(buyer, body, { key })),
    );
    const retry = await checkout(buyer, body, { key });
    const ids = new Set(
      [...responses, retry].map((r) => (r.statusCode === 201 ? r.json().sessionId : r.statusCode)),
    );
    expect(ids.size).toBe(1);
    expect(await count(sql`select count(*) as n from purchases where buyer_id = ${buyer.id}`)).toBe(
      1,
    );
    expect(
      await count(sql`select count(*) as n from sandbox_stripe_objects s
        join purchases p on p.id = s.data->'metadata'->>'purchase_id'
        where s.type = 'checkout.session' and p.buyer_id = ${buyer.id}`),
    ).toBe(1);
    const other = await checkout(buyer, { priceId: indicator.priceId }, { key });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(ordersMessages.idempotencyMismatch);
  });
});

describe('coupon redemption limit under concurrency', () => {
  it('20 concurrent checkouts with 5 redemptions left record exactly 5', async () => {
    const coupon = await createCoupon(t, vendor.id, { maxRedemptions: 8, redemptions: 3 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createBuyer(t)));
    const results = await Promise.all(
      buyers.map((b) => checkout(b, { priceId: course.priceId, coupon: coupon.code })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 422)).toHaveLength(15);
    for (const r of results.filter((x) => x.statusCode === 422)) {
      expect(r.json().error).toBe(ordersMessages.couponExhausted);
    }
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(8);
    expect(
      await count(sql`select count(*) as n from purchases where coupon_id = ${coupon.id}`),
    ).toBe(5);
  });
});

describe('webhooks', () => {
  async function pendingPurchase(body: Record<string, unknown> = { priceId: course.priceId }) {
    const buyer = await createBuyer(t);
    const res = await checkout(buyer, body);
    const purchaseId = await purchaseIdOfSession(t, res.json().sessionId);
    return { buyer, purchaseId, sessionId: res.json().sessionId as string };
  }
  const facts = async (purchaseId: string, buyerId: string) => ({
    entitlements: await count(
      sql`select count(*) as n from entitlements where purchase_id = ${purchaseId}`,
    ),
    ledger: await count(
      sql`select count(*) as n from ledger_entries where purchase_id = ${purchaseId}`,
    ),
    receipts:
      await count(sql`select count(*) as n from mail_outbox o join users u on lower(u.email) = lower(o.to)
      where u.id = ${buyerId} and o.subject like 'Your Tradeshelf receipt%'`),
    ownerships: await count(
      sql`select count(*) as n from ownerships where source = ${`purchase:${purchaseId}`}`,
    ),
  });

  it('applies the same completed event once, delivered 3 times in sequence and 3 times concurrently', async () => {
    const { buyer, purchaseId } = await pendingPurchase();
    const event = {
      id: `evt_${purchaseId}`,
      type: 'checkout.completed' as const,
      purchaseId,
      amount: 5_000,
    };
    const sequential = [];
    for (let i = 0; i < 3; i++) sequential.push((await deliverEvent(t, event)).json().outcome);
    expect(sequential).toEqual(['processed', 'duplicate', 'duplicate']);
    const concurrent = await Promise.all(Array.from({ length: 3 }, () => deliverEvent(t, event)));
    expect(concurrent.map((r) => r.json().outcome)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await facts(purchaseId, buyer.id)).toEqual({
      entitlements: 2,
      ledger: 3,
      receipts: 1,
      ownerships: 1,
    });
  });

  it('applies the first of 3 concurrent deliveries of a fresh event exactly once', async () => {
    const { buyer, purchaseId } = await pendingPurchase();
    const event = {
      id: `evt_c_${purchaseId}`,
      type: 'checkout.completed' as const,
      purchaseId,
      amount: 5_000,
    };
    const outcomes = (
      await Promise.all(Array.from({ length: 3 }, () => deliverEvent(t, event)))
    ).map((r) => r.json().outcome);
    expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'processed']);
    expect(await facts(purchaseId, buyer.id)).toEqual({
      entitlements: 2,
      ledger: 3,
      receipts: 1,
      ownerships: 1,
    });
    // A second, different completed event for the same purchase changes nothing either.
    await deliverEvent(t, { ...event, id: `evt_c2_${purchaseId}` });
    expect(await facts(purchaseId, buyer.id)).toEqual({
      entitlements: 2,
      ledger: 3,
      receipts: 1,
      ownerships: 1,
    });
  });

  it('converges to refunded when the refund arrives before the completed event', async () => {
    const { buyer, purchaseId, sessionId } = await pendingPurchase();
    await deliverEvent(t, { id: `evt_r_${purchaseId}`, type: 'refund', purchaseId });
    await deliverEvent(t, {
      id: `evt_p_${purchaseId}`,
      type: 'checkout.completed',
      purchaseId,
      amount: 5_000,
    });
    const purchase = await status(buyer, sessionId);
    expect(purchase.status).toBe('refunded');
    expect(purchase.entitlements).toEqual([]);
    const f = await facts(purchaseId, buyer.id);
    expect(f.ownerships).toBe(0);
  });

  // Probe of issue 26: a signed `subscription.renewed` for a one-time purchase was applied as a
  // second sale (ledger, vendor balance). Subscription events for one-time purchases are ignored.
  it('acknowledges subscription events for a one-time purchase and changes nothing', async () => {
    const { buyer, purchaseId } = await pendingPurchase();
    await deliverEvent(t, {
      id: `evt_once_${purchaseId}`,
      type: 'checkout.completed',
      purchaseId,
      amount: 5_000,
    });
    const state = async () => ({
      facts: await facts(purchaseId, buyer.id),
      sales: await count(sql`select sales_count as n from products where id = ${course.id}`),
      purchase: (
        await t.database.db.execute(
          sql`select status, subscription_status, current_period_end from purchases
            where id = ${purchaseId}`,
        )
      ).rows[0],
    });
    const before = await state();
    expect(before.facts.ledger).toBe(3);
    for (const type of [
      'subscription.renewed',
      'subscription.updated',
      'subscription.ended',
    ] as const) {
      const res = await deliverEvent(t, {
        id: `evt_${type}_${purchaseId}`,
        type,
        purchaseId,
        amount: 5_000,
        subscriptionId: 'sub_forged',
        periodEnd: new Date(Date.now() + 30 * 86_400_000),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe('ignored');
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a subscription event that overtakes its checkout, so the provider retries it', async () => {
    const { buyer, purchaseId } = await pendingPurchase({
      priceId: indicator.priceId,
      scheme: 'month',
    });
    const early = {
      id: `evt_u_${purchaseId}`,
      type: 'subscription.updated' as const,
      purchaseId,
      cancelAtPeriodEnd: true,
    };
    const refused = await deliverEvent(t, early);
    expect(refused.statusCode).toBe(409);
    expect(await count(sql`select count(*) as n from payment_events where id = ${early.id}`)).toBe(
      0,
    );
    await deliverEvent(t, { id: `evt_done_${purchaseId}`, type: 'checkout.completed', purchaseId });
    expect((await deliverEvent(t, early)).json().outcome).toBe('processed');
    expect((await facts(purchaseId, buyer.id)).ownerships).toBe(1);
  });

  it('a refund after payment ends access at once and reverses the ledger', async () => {
    const buyer = await createBuyer(t);
    const purchase = await buy(buyer, { priceId: course.priceId });
    const { sessionId: sandboxId } = await atStripe(t, purchase.id);
    // The sandbox dashboard's partial refund first: half back, access kept.
    await sandboxPost(t, `/sandbox/payments/${sandboxId}/refund_half`);
    const half = await status(buyer, purchase.sessionId);
    expect(half.status).toBe('paid');
    expect(half.refunded.amount).toBe(2_500);
    expect(half.entitlements.every((e: { status: string }) => e.status === 'active')).toBe(true);
    await sandboxPost(t, `/sandbox/payments/${sandboxId}/refund`);
    const after = await status(buyer, purchase.sessionId);
    expect(after.refunded.amount).toBe(5_000);
    expect(after.status).toBe('refunded');
    expect(after.entitlements.every((e: { status: string }) => e.status === 'ended')).toBe(true);
    const ledger = await ledgerOf(t, purchase.id);
    const byAccount = new Map<string, number>();
    for (const e of ledger)
      byAccount.set(e.account_type, (byAccount.get(e.account_type) ?? 0) + e.amount);
    expect([...byAccount.values()].every((v) => v === 0)).toBe(true);
    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: course.id },
    });
    expect(details.json().product.purchased).toBe(false);
  });

  it('a partial refund keeps access and reverses its share; later totals add up, the whole ends access', async () => {
    const buyer = await createBuyer(t);
    const purchase = await buy(buyer, { priceId: indicator.priceId });
    const sale = (
      await t.database.db.execute(sql`select payment_ref from ledger_entries
        where purchase_id = ${purchase.id} and entry_type = 'sale'`)
    ).rows[0] as { payment_ref: string };
    const ref = sale.payment_ref;
    const refundTo = (id: string, amount: number) =>
      deliverEvent(t, { id, type: 'refund', purchaseId: purchase.id, paymentRef: ref, amount });
    const sums = async () => {
      const byAccount = new Map<string, number>();
      for (const e of await ledgerOf(t, purchase.id))
        byAccount.set(e.account_type, (byAccount.get(e.account_type) ?? 0) + e.amount);
      return Object.fromEntries(byAccount);
    };

    // 30.01 of 100.00 back: the set stays zero-sum and every share gives back its part.
    expect((await refundTo(`evt_p1_${purchase.id}`, 3_001)).json().outcome).toBe('processed');
    let now = await status(buyer, purchase.sessionId);
    expect(now.status).toBe('paid');
    expect(now.refunded).toEqual({ amount: 3_001, currency: 'usd' });
    expect(now.entitlements.every((e: { status: string }) => e.status === 'active')).toBe(true);
    let s = await sums();
    expect(s.clearing).toBe(-10_000 + 3_001);
    expect(s.platform! + s.vendor!).toBe(10_000 - 3_001);
    expect(s.platform).toBe(530 - Math.round((530 * 3_001) / 10_000));

    // A repeat and an older, smaller total change nothing.
    await refundTo(`evt_p1_${purchase.id}`, 3_001);
    await refundTo(`evt_p0_${purchase.id}`, 1_000);
    expect((await status(buyer, purchase.sessionId)).refunded.amount).toBe(3_001);

    // Two more totals delivered at once, in either order: the larger one is where it ends up.
    await Promise.all([
      refundTo(`evt_p2_${purchase.id}`, 5_000),
      refundTo(`evt_p3_${purchase.id}`, 7_500),
    ]);
    now = await status(buyer, purchase.sessionId);
    expect(now.status).toBe('paid');
    expect(now.refunded.amount).toBe(7_500);

    // The whole payment: access ends now and every account is back to exactly zero.
    await refundTo(`evt_p4_${purchase.id}`, 10_000);
    now = await status(buyer, purchase.sessionId);
    expect(now.status).toBe('refunded');
    expect(now.refunded.amount).toBe(10_000);
    expect(now.entitlements.every((e: { status: string }) => e.status === 'ended')).toBe(true);
    s = await sums();
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
  });

  it('matches a refund without purchase id by its payment, and refuses one it cannot match yet', async () => {
    const { buyer, purchaseId, sessionId } = await pendingPurchase();
    const orphan = {
      id: `evt_o_${purchaseId}`,
      type: 'refund' as const,
      purchaseId: null,
      paymentRef: `pi_x_${purchaseId}`,
    };
    expect((await deliverEvent(t, orphan)).statusCode).toBe(409);
    await deliverEvent(t, {
      id: `evt_paid_${purchaseId}`,
      type: 'checkout.completed',
      purchaseId,
      paymentRef: `pi_x_${purchaseId}`,
    });
    expect((await deliverEvent(t, orphan)).json().outcome).toBe('processed');
    expect((await status(buyer, sessionId)).status).toBe('refunded');
  });

  it('rejects a tampered body, a wrong secret and a stale timestamp with 400 and no change', async () => {
    const { buyer, purchaseId } = await pendingPurchase();
    const event = { id: `evt_bad_${purchaseId}`, type: 'checkout.completed' as const, purchaseId };
    const tampered = await deliverEvent(t, event, { tamper: (b) => b.replace('"usd"', '"eur"') });
    const wrong = await deliverEvent(t, event, { secret: 'x'.repeat(40) });
    const stale = await deliverEvent(t, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    for (const res of [tampered, wrong, stale]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request' });
    }
    expect(await facts(purchaseId, buyer.id)).toEqual({
      entitlements: 0,
      ledger: 0,
      receipts: 0,
      ownerships: 0,
    });
    expect(await count(sql`select count(*) as n from payment_events where id = ${event.id}`)).toBe(
      0,
    );
  });
});

// Probe of issue 26: a vendor bought their own product, which raised its sales count ("best
// selling"). Checkout refuses a vendor's own product or bundle; its pages say it is theirs.
describe('a vendor’s own items', () => {
  it('refuses checkout of the vendor’s own product or bundle; nothing is created or counted', async () => {
    const own = await createVendor(t);
    const seller = {
      ...own,
      token: await t.deps.tokens.sign({
        sub: own.userId,
        email: `${own.userId}@x.test`,
        roles: ['buyer', 'vendor'],
      }),
    };
    const product = await createProduct(t, own.id, { title: 'Own Scanner', amount: 3_000 });
    const bundle = await createBundle(t, own.id, [product.id], 2_500);
    const coupon = await createCoupon(t, own.id, { maxRedemptions: 5 });
    const refused = [
      await checkout(
        seller,
        { priceId: product.priceId },
        {
          vendorUrl: own.vendorUrl,
        },
      ),
      await checkout(
        seller,
        { priceId: product.priceId, coupon: coupon.code },
        {
          vendorUrl: own.vendorUrl,
        },
      ),
      await t.call(ordersRoutes.checkoutBundle, {
        token: seller.token,
        body: { bundleId: bundle.id },
      }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe(ordersMessages.ownItem);
    }
    expect(
      await count(sql`select count(*) as n from purchases where buyer_id = ${own.userId}`),
    ).toBe(0);
    expect(await count(sql`select redemptions as n from coupons where id = ${coupon.id}`)).toBe(0);
    expect(await count(sql`select sales_count as n from products where id = ${product.id}`)).toBe(
      0,
    );

    const details = await t.call(catalogRoutes.productDetails, {
      token: seller.token,
      query: { id: product.id },
    });
    expect(details.json().product.soldByYou).toBe(true);
    const bundleDetails = await t.call(catalogRoutes.bundleDetails, {
      token: seller.token,
      query: { id: bundle.id },
    });
    expect(bundleDetails.json().bundle.soldByYou).toBe(true);
    const buyer = await createBuyer(t);
    const seen = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: product.id },
    });
    expect(seen.json().product.soldByYou).toBe(false);
    const anonymous = await t.call(catalogRoutes.productDetails, { query: { id: product.id } });
    expect(anonymous.json().product.soldByYou).toBe(false);
    // Anyone else may buy it.
    expect(
      (await checkout(buyer, { priceId: product.priceId }, { vendorUrl: own.vendorUrl }))
        .statusCode,
    ).toBe(201);
  });
});

describe('ownership before checkout', () => {
  it('refuses a product owned through a bundle', async () => {
    const buyer = await createBuyer(t);
    const bundle = await createBundle(t, vendor.id, [course.id], 4_000);
    await grantOwnership(t, buyer.id, { bundleId: bundle.id });
    const res = await checkout(buyer, { priceId: course.priceId });
    expect(res.statusCode).toBe(409);
  });
});
