import { ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  type Buyer,
  createBuyer,
  createCoupon,
  ledgerOf,
  purchaseOfSession,
  sandboxPost,
  startProductCheckout,
  TEST_FEES,
} from '../../../test/factories/orders.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';

const t = useTestApp(() => startTestApp(TEST_FEES));
let vendor: Awaited<ReturnType<typeof createVendor>>;
let other: Awaited<ReturnType<typeof createVendor>>;
let signals: Awaited<ReturnType<typeof createProduct>>;

const DAY = 86_400_000;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'trial-vendor' });
  other = await createVendor(t, { vendorUrl: 'trial-other' });
  signals = await createProduct(t, vendor.id, {
    title: 'Trial Signals',
    amount: 49_000,
    extraPrices: [4_900],
  });
  await t.database.db.execute(
    sql`update prices set trial_days = 7 where product_id = ${signals.id} and scheme = 'recurring'`,
  );
});

const startTrial = (buyer: Buyer, coupon?: string) =>
  startProductCheckout(t, buyer, vendor.vendorUrl, {
    priceId: signals.priceId,
    scheme: 'month',
    ...(coupon ? { coupon } : {}),
  });
const purchaseOf = (buyer: Buyer, sessionId: string) => purchaseOfSession(t, buyer, sessionId);

/** The sandbox dashboard's buttons for the session behind a purchase. */
const dashboard = (sessionId: string, action: string) =>
  sandboxPost(t, `/sandbox/payments/${sessionId}/${action}`);

const vendorBalance = async (purchaseId: string) =>
  (await ledgerOf(t, purchaseId))
    .filter((e) => e.account_type === 'vendor')
    .reduce((sum, e) => sum + e.amount, 0);

describe('free trials: money shown is money paid', () => {
  it('starts a trial with a first-payment coupon: nothing charged, nothing in the ledger, the receipt says so', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 20, duration: 'once' });
    const sessionId = await startTrial(buyer, coupon.code);

    const page = await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${sessionId}` });
    expect(page.body).toContain('<strong>$0.00</strong>');
    expect(page.body).toContain('Then, when the trial ends</td><td>$39.20 / month');

    await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    const purchase = await purchaseOf(buyer, sessionId);
    const trialEnd = Date.parse(purchase.subscription.trialEndsAt);
    expect(Math.abs(trialEnd - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(purchase).toMatchObject({
      status: 'paid',
      total: { amount: 3_920 },
      paid: { amount: 0, currency: 'usd' },
      subscription: {
        status: 'trialing',
        renewalAmount: { amount: 4_900 },
        nextPayment: { amount: { amount: 3_920 }, at: purchase.subscription.trialEndsAt },
      },
    });
    expect(await ledgerOf(t, purchase.id)).toEqual([]);

    const mail = t.smtp.inbox.find((m) => m.subject.includes(purchase.receiptNumber));
    expect(mail?.subject).toContain('Your free trial of Trial Signals has started');
    expect(mail?.raw).toContain('Paid today: 0.00 USD');
    expect(mail?.raw).toContain('Next payment: 39.20 USD');
    expect(mail?.raw).not.toMatch(/Total: 39\.20/);
  });

  it('converts at the end of the trial: the first charge carries the coupon, later ones do not', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 20, duration: 'once' });
    const sessionId = await startTrial(buyer, coupon.code);
    await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);

    expect((await dashboard(sessionId, 'renew')).statusCode).toBe(303);
    let purchase = await purchaseOf(buyer, sessionId);
    expect(purchase).toMatchObject({
      paid: { amount: 3_920 },
      subscription: {
        status: 'active',
        trialEndsAt: null,
        nextPayment: { amount: { amount: 4_900 } },
      },
    });
    // 5 % + 30 of 3 920 is 226; the vendor gets the rest.
    expect(await vendorBalance(purchase.id)).toBe(3_920 - 226);

    await dashboard(sessionId, 'renew');
    purchase = await purchaseOf(buyer, sessionId);
    expect(purchase.paid.amount).toBe(3_920 + 4_900);
    expect(await vendorBalance(purchase.id)).toBe(3_920 - 226 + (4_900 - 275));
  });

  it('keeps a coupon for every payment on each charge after the trial', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 10, duration: 'forever' });
    const sessionId = await startTrial(buyer, coupon.code);
    await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    expect((await purchaseOf(buyer, sessionId)).subscription.nextPayment.amount.amount).toBe(4_410);
    await dashboard(sessionId, 'renew');
    await dashboard(sessionId, 'renew');
    expect((await purchaseOf(buyer, sessionId)).paid.amount).toBe(2 * 4_410);
  });

  it('cancels a trial before it converts: access to the trial end, never a charge', async () => {
    const buyer = await createBuyer(t);
    const sessionId = await startTrial(buyer);
    await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);

    const portal = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(portal.statusCode, portal.body).toBe(200);
    const portalPath = new URL(portal.json().session.url).pathname;
    const cancel = /action="([^"]+\/cancel)"/.exec(
      (await t.app.inject({ method: 'GET', url: portalPath })).body,
    )?.[1];
    expect(cancel).toBeTruthy();
    expect((await sandboxPost(t, cancel!)).statusCode).toBe(303);

    let purchase = await purchaseOf(buyer, sessionId);
    expect(purchase).toMatchObject({
      paid: { amount: 0 },
      subscription: { status: 'cancelling', nextPayment: null },
      entitlements: [
        expect.objectContaining({
          status: 'active',
          endsAt: purchase.subscription.currentPeriodEnd,
        }),
      ],
    });

    await dashboard(sessionId, 'end');
    purchase = await purchaseOf(buyer, sessionId);
    expect(purchase.subscription.status).toBe('ended');
    expect(purchase.entitlements[0].status).toBe('ended');
    expect(await ledgerOf(t, purchase.id)).toEqual([]);
  });
});

describe('the customer portal', () => {
  it('opened from one vendor lists only that vendor’s subscriptions', async () => {
    const buyer = await createBuyer(t);
    const elsewhere = await createProduct(t, other.id, {
      title: 'Elsewhere Feed',
      amount: 9_900,
      extraPrices: [2_900],
    });
    for (const [vendorUrl, priceId] of [
      [vendor.vendorUrl, signals.priceId],
      [other.vendorUrl, elsewhere.priceId],
    ] as const) {
      const res = await t.call(ordersRoutes.checkoutProduct, {
        token: buyer.token,
        query: { vendorUrl },
        body: { priceId, scheme: 'month' },
      });
      expect(res.statusCode, res.body).toBe(201);
      await sandboxPost(t, `/sandbox/checkout/${res.json().sessionId}/pay`);
    }
    for (const [vendorUrl, shown, hidden] of [
      [vendor.vendorUrl, 'Trial Signals', 'Elsewhere Feed'],
      [other.vendorUrl, 'Elsewhere Feed', 'Trial Signals'],
    ] as const) {
      const portal = await t.call(ordersRoutes.customerPortal, {
        token: buyer.token,
        query: { vendorUrl },
      });
      expect(portal.statusCode, portal.body).toBe(200);
      const page = await t.app.inject({
        method: 'GET',
        url: new URL(portal.json().session.url).pathname,
      });
      expect(page.body).toContain(shown);
      expect(page.body).not.toContain(hidden);
    }
  });
});
