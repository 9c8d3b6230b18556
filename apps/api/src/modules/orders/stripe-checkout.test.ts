import { catalogRoutes, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/stripe.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createPlatformPlans } from '../../../test/factories/membership.ts';
import { createBuyer, createCoupon } from '../../../test/factories/orders.ts';
import { postSignedWebhook, postStripeEvent, startStripeApp } from '../../../test/stripe-events.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startPayoutOnboarding } from '../../../test/factories/two-factor.ts';
import { processAutoRefunds } from './service.ts';

const WEBHOOK_SECRET = 'whsec_test_orders_secret';
let stripe: FakeStripe;
let t: TestApp;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await startStripeApp(stripe, WEBHOOK_SECRET, { PLATFORM_FEE_BPS: '1000' });
  vendor = await createVendor(t, { vendorUrl: 'stripe-vendor' });
  product = await createProduct(t, vendor.id, { title: 'Stripe Tool', amount: 8_000 });
  await t.database.db
    .execute(sql`insert into vendor_payment_accounts (vendor_id, provider, account_id, charges_enabled)
    values (${vendor.id}, 'stripe', 'acct_vendor_1', true)`);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

/** Posts a raw webhook body with a real Stripe signature (by default, with the app's secret). */
const signedPost = (payload: string, secret = WEBHOOK_SECRET) =>
  postSignedWebhook(t, payload, secret);

const stripeEvent = (type: string, object: Record<string, unknown>, id: string) =>
  postStripeEvent(t, WEBHOOK_SECRET, type, object, id);

describe('checkout against Stripe (loopback fake)', () => {
  it('creates a Connect checkout session and fulfils on the signed completed webhook', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 50 });
    const key = 'stripe-checkout-key-1';
    const call = () =>
      t.call(ordersRoutes.checkoutProduct, {
        token: buyer.token,
        query: { vendorUrl: vendor.vendorUrl },
        body: { priceId: product.priceId, coupon: coupon.code },
        headers: { 'idempotency-key': key },
      });
    const res = await call();
    expect(res.statusCode, res.body).toBe(201);
    const { url, sessionId } = res.json();
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    expect((await call()).json().sessionId).toBe(sessionId);

    const created = stripe.requestsTo('/v1/checkout/sessions');
    expect(created).toHaveLength(1);
    const params = created[0]!.body;
    expect(params).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '4000',
      'payment_intent_data[application_fee_amount]': '400',
      'payment_intent_data[transfer_data][destination]': 'acct_vendor_1',
    });
    const purchaseId = params['metadata[purchase_id]']!;
    expect(purchaseId).toMatch(/^pur_/);
    expect(params.success_url).toContain('/orders/status?session_id={CHECKOUT_SESSION_ID}');

    const session = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      status: 'complete',
      amount_total: 4000,
      currency: 'usd',
      client_reference_id: purchaseId,
      metadata: { purchase_id: purchaseId },
      payment_intent: 'pi_123',
      customer: 'cus_123',
      subscription: null,
    };
    const delivered = await stripeEvent('checkout.session.completed', session, 'evt_stripe_1');
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(
      (await stripeEvent('checkout.session.completed', session, 'evt_stripe_1')).json().outcome,
    ).toBe('duplicate');
    const status = await t.call(ordersRoutes.purchaseStatus, {
      token: buyer.token,
      params: { id: sessionId },
    });
    expect(status.json().purchase).toMatchObject({ status: 'paid', total: { amount: 4000 } });
    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: product.id },
    });
    expect(details.json().product.purchased).toBe(true);
  });

  it('refunds a subscription renewal named by its payment intent, through the invoice it paid', async () => {
    const plan = await createProduct(t, vendor.id, {
      title: 'Stripe Signals',
      extraPrices: [1_500],
    });
    const buyer = await createBuyer(t);
    const res = await t.call(ordersRoutes.checkoutProduct, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: plan.priceId, scheme: 'month' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { sessionId } = res.json();
    const purchaseId = stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body[
      'metadata[purchase_id]'
    ]!;
    const meta = { purchase_id: purchaseId };
    const month = Math.floor(Date.now() / 1000) + 30 * 86_400;
    // Subscription payments are recorded by invoice: the first through checkout, the next on renewal.
    await stripeEvent(
      'checkout.session.completed',
      {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        status: 'complete',
        amount_total: 1_500,
        currency: 'usd',
        metadata: meta,
        payment_intent: null,
        invoice: 'in_sub_first',
        subscription: 'sub_signals',
        customer: 'cus_signals',
      },
      'evt_sub_done',
    );
    const renewed = await stripeEvent(
      'invoice.paid',
      {
        id: 'in_sub_second',
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: 1_500,
        currency: 'usd',
        customer: 'cus_signals',
        parent: { subscription_details: { subscription: 'sub_signals', metadata: meta } },
        lines: { data: [{ period: { end: month + 30 * 86_400 } }] },
      },
      'evt_sub_renewed',
    );
    expect(renewed.json().outcome).toBe('processed');

    // Stripe names the refunded charge's payment intent and carries no metadata.
    const refund = (id: string, intent: string) =>
      stripeEvent(
        'charge.refunded',
        {
          id: `ch_${id}`,
          object: 'charge',
          amount: 1_500,
          amount_refunded: 1_500,
          currency: 'usd',
          payment_intent: intent,
          metadata: {},
        },
        id,
      );
    expect((await refund('evt_refund_unknown', 'pi_nobody_paid')).statusCode).toBe(409);
    stripe.recordInvoicePayment('in_sub_second', 'pi_second');
    const refunded = await refund('evt_refund_second', 'pi_second');
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(stripe.requestsTo('/v1/invoice_payments').at(-1)!.body).toMatchObject({
      'payment[type]': 'payment_intent',
      'payment[payment_intent]': 'pi_second',
    });

    const status = await t.call(ordersRoutes.purchaseStatus, {
      token: buyer.token,
      params: { id: sessionId },
    });
    expect(status.json().purchase).toMatchObject({
      status: 'refunded',
      refunded: { amount: 1_500, currency: 'usd' },
    });
    // Only the renewal is reversed: the first month stays a sale.
    const vendorBalance = await t.database.db.execute(sql`select coalesce(sum(amount), 0)::int as n
      from ledger_entries where purchase_id = ${purchaseId} and account_type = 'vendor'`);
    expect((vendorBalance.rows[0] as { n: number }).n).toBe(1_350);
  });

  it('rejects a webhook signed with another secret', async () => {
    const payload = JSON.stringify({
      id: 'evt_bad',
      object: 'event',
      type: 'charge.refunded',
      data: { object: {} },
    });
    const res = await signedPost(payload, 'whsec_other');
    expect(res.statusCode).toBe(400);
  });

  it('onboards a vendor to Connect and routes later sales to the account once it is enabled', async () => {
    const seller = await createVendor(t, { vendorUrl: 'connect-vendor' });
    const sellerToken = await t.deps.tokens.sign({
      sub: seller.userId,
      email: 'seller@example.com',
      roles: ['buyer', 'vendor'],
    });
    const started = await startPayoutOnboarding(t, sellerToken);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/e\/acct_test_\d+/);
    const accountId = stripe.requestsTo('/v1/account_links').at(-1)!.body.account!;

    const pending = await t.call(ordersRoutes.connectAccountCallback, { token: sellerToken });
    expect(pending.json()).toMatchObject({ chargesEnabled: false });
    stripe.completeOnboarding(accountId);
    const ready = await t.call(ordersRoutes.connectAccountCallback, { token: sellerToken });
    expect(ready.json()).toMatchObject({ chargesEnabled: true });

    const item = await createProduct(t, seller.id, { amount: 3_000 });
    const buyer = await createBuyer(t);
    const res = await t.call(ordersRoutes.checkoutProduct, {
      token: buyer.token,
      query: { vendorUrl: seller.vendorUrl },
      body: { priceId: item.priceId },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body).toMatchObject({
      'payment_intent_data[transfer_data][destination]': accountId,
      'payment_intent_data[application_fee_amount]': '300',
    });

    // Anyone else onboards for affiliate payouts (ADR 037); a vendor's account stays for vendors.
    const notVendor = await startPayoutOnboarding(t, buyer.token, 'vendor');
    expect(notVendor.statusCode).toBe(403);
  });

  it('opens the Stripe billing portal for a subscriber', async () => {
    const buyer = await createBuyer(t);
    await t.database.db
      .execute(sql`insert into purchases (id, buyer_id, vendor_id, provider, session_id, checkout_url,
        idempotency_key, request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
        subscription_id, subscription_status, customer_id, expires_at)
      values ('pur_sub_1', ${buyer.id}, ${vendor.id}, 'stripe', 'cs_sub_1', 'https://x', 'k-sub-1', 'h', 'paid',
        'product', ${product.id}, ${product.priceId}, 'month', 'usd', 8000, 8000, 'sub_1', 'active', 'cus_portal', now())`);
    const res = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(stripe.requestsTo('/v1/billing_portal/sessions').at(-1)!.body).toMatchObject({
      customer: 'cus_portal',
    });
    expect(res.json().session.url).toMatch(/^https:\/\//);
  });

  it('refunds a second paid checkout of an owned product at Stripe, once, even through an outage', async () => {
    const tool = await createProduct(t, vendor.id, { title: 'Stripe Twice', amount: 2_000 });
    const buyer = await createBuyer(t);
    const start = async () => {
      const res = await t.call(ordersRoutes.checkoutProduct, {
        token: buyer.token,
        query: { vendorUrl: vendor.vendorUrl },
        body: { priceId: tool.priceId },
      });
      expect(res.statusCode, res.body).toBe(201);
      const purchaseId = stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body[
        'metadata[purchase_id]'
      ]!;
      return { sessionId: res.json().sessionId as string, purchaseId };
    };
    const first = await start();
    const second = await start();
    const complete = (c: { sessionId: string; purchaseId: string }, intent: string) =>
      stripeEvent(
        'checkout.session.completed',
        {
          id: c.sessionId,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          amount_total: 2_000,
          currency: 'usd',
          metadata: { purchase_id: c.purchaseId },
          payment_intent: intent,
          customer: 'cus_twice',
        },
        `evt_done_${intent}`,
      );
    expect((await complete(first, 'pi_twice_1')).statusCode).toBe(200);
    // Stripe is down when the duplicate arrives: the webhook still succeeds, the refund waits.
    stripe.failNext(3);
    expect((await complete(second, 'pi_twice_2')).statusCode).toBe(200);
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(3);
    const owed = await t.database.db.execute(
      sql`select status, last_error from auto_refunds where purchase_id = ${second.purchaseId}`,
    );
    expect(owed.rows[0]).toMatchObject({ status: 'pending' });

    await t.database.db.execute(
      sql`update auto_refunds set next_attempt_at = now() where purchase_id = ${second.purchaseId}`,
    );
    expect(await processAutoRefunds(t.deps)).toBe(1);
    expect(await processAutoRefunds(t.deps)).toBe(0);
    const refunds = stripe.requestsTo('/v1/refunds');
    expect(refunds).toHaveLength(4);
    expect(new Set(refunds.map((r) => r.idempotencyKey))).toEqual(
      new Set([`dup-refund:${second.purchaseId}`]),
    );
    expect(refunds.at(-1)!.body).toMatchObject({
      payment_intent: 'pi_twice_2',
      reason: 'duplicate',
      'metadata[purchase_id]': second.purchaseId,
    });

    // Stripe's own charge.refunded for it then changes nothing.
    const confirmed = await stripeEvent(
      'charge.refunded',
      {
        id: 'ch_twice_2',
        object: 'charge',
        amount_refunded: 2_000,
        currency: 'usd',
        payment_intent: 'pi_twice_2',
        metadata: { purchase_id: second.purchaseId },
      },
      'evt_twice_refunded',
    );
    expect(confirmed.json().outcome).toBe('processed');
    const status = await t.call(ordersRoutes.purchaseStatus, {
      token: buyer.token,
      params: { id: second.sessionId },
    });
    expect(status.json().purchase).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
      refunded: { amount: 2_000 },
    });
  });

  it('ends a duplicate subscription at Stripe and refunds its first invoice through its payment intent', async () => {
    const plan = await createProduct(t, vendor.id, {
      title: 'Stripe Sub Twice',
      extraPrices: [1_200],
    });
    const buyer = await createBuyer(t);
    const sessions: Array<{ sessionId: string; purchaseId: string }> = [];
    for (const _ of [1, 2]) {
      const res = await t.call(ordersRoutes.checkoutProduct, {
        token: buyer.token,
        query: { vendorUrl: vendor.vendorUrl },
        body: { priceId: plan.priceId, scheme: 'month' },
      });
      expect(res.statusCode, res.body).toBe(201);
      sessions.push({
        sessionId: res.json().sessionId,
        purchaseId: stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body[
          'metadata[purchase_id]'
        ]!,
      });
    }
    for (const [i, c] of sessions.entries()) {
      stripe.recordInvoicePayment(`in_twice_${i}`, `pi_sub_twice_${i}`);
      const done = await stripeEvent(
        'checkout.session.completed',
        {
          id: c.sessionId,
          object: 'checkout.session',
          mode: 'subscription',
          payment_status: 'paid',
          amount_total: 1_200,
          currency: 'usd',
          metadata: { purchase_id: c.purchaseId },
          payment_intent: null,
          invoice: `in_twice_${i}`,
          subscription: `sub_twice_${i}`,
          customer: 'cus_sub_twice',
        },
        `evt_sub_twice_${i}`,
      );
      expect(done.statusCode, done.body).toBe(200);
    }
    const cancels = stripe.requests.filter((r) => r.method === 'DELETE');
    expect(cancels.map((r) => r.path)).toEqual(['/v1/subscriptions/sub_twice_1']);
    expect(stripe.requestsTo('/v1/refunds').at(-1)!.body).toMatchObject({
      payment_intent: 'pi_sub_twice_1',
      'metadata[purchase_id]': sessions[1]!.purchaseId,
    });
  });

  it.each([
    ['[]'],
    ['null'],
    ['{"id":null}'],
    [
      '{"id":"evt_x","type":"charge.refunded","created":1,"data":{"object":{"id":"ch_x","amount_refunded":"all","payment_intent":"pi_x"}}}',
    ],
  ])('answers a validly signed body that is not a usable event (%s) with 400', async (payload) => {
    const res = await signedPost(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: 'Webhook body is not a valid event.',
      code: 'bad_request',
    });
  });
});

describe('member pricing against Stripe (ADR 027)', () => {
  it('charges the member price with a fee that leaves the vendor their full share, one-time and subscription', async () => {
    const planProducts = await createPlatformPlans(t);
    const member = await createBuyer(t);
    // Premium bought through Stripe (the platform collects its own plan: no connected account).
    const planRes = await t.call(ordersRoutes.checkoutProduct, {
      token: member.token,
      query: { vendorUrl: 'tradeshelf' },
      body: { priceId: planProducts.premium.monthlyPriceId },
    });
    expect(planRes.statusCode, planRes.body).toBe(201);
    const planBody = stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body;
    expect(planBody).not.toHaveProperty('subscription_data[application_fee_percent]');
    const planPurchase = planBody['metadata[purchase_id]']!;
    const done = await stripeEvent(
      'checkout.session.completed',
      {
        id: planRes.json().sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        status: 'complete',
        amount_total: 1_900,
        currency: 'usd',
        metadata: { purchase_id: planPurchase },
        payment_intent: null,
        invoice: 'in_premium_first',
        subscription: 'sub_premium',
        customer: 'cus_premium',
      },
      'evt_premium_done',
    );
    expect(done.statusCode, done.body).toBe(200);

    // One-time, $80 at a 10 % fee: 3 % off is $2.40 of the $8.00 fee.
    const oneTime = await t.call(ordersRoutes.checkoutProduct, {
      token: member.token,
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: product.priceId },
    });
    expect(oneTime.statusCode, oneTime.body).toBe(201);
    expect(stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '7760',
      'payment_intent_data[application_fee_amount]': '560',
      'payment_intent_data[transfer_data][destination]': 'acct_vendor_1',
    });

    // Subscription, $15 a month: member price $14.55, fee $1.50 − $0.45 = $1.05 = 7.21 % (rounded
    // down) of $14.55, so Stripe keeps $1.05 and the vendor nets $13.50, as from a non-member.
    const plan = await createProduct(t, vendor.id, { title: 'Member Feed', extraPrices: [1_500] });
    const sub = await t.call(ordersRoutes.checkoutProduct, {
      token: member.token,
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: plan.extraPriceIds[0]! },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const subBody = stripe.requestsTo('/v1/checkout/sessions').at(-1)!.body;
    expect(subBody).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '1455',
      'line_items[0][price_data][product_data][name]': 'Member Feed (Premium member price)',
      'subscription_data[application_fee_percent]': '7.21',
    });
    expect(Math.round((1455 * 7.21) / 100)).toBe(105);
    expect(subBody).not.toHaveProperty('discounts[0][coupon]');

    const subPurchase = subBody['metadata[purchase_id]']!;
    await stripeEvent(
      'checkout.session.completed',
      {
        id: sub.json().sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        status: 'complete',
        amount_total: 1_455,
        currency: 'usd',
        metadata: { purchase_id: subPurchase },
        payment_intent: null,
        invoice: 'in_member_first',
        subscription: 'sub_member_feed',
        customer: 'cus_premium_vendor',
      },
      'evt_member_feed_done',
    );
    const ledger = await t.database.db.execute<{ entry_type: string; amount: number }>(
      sql`select entry_type, amount from ledger_entries where purchase_id = ${subPurchase}
          order by entry_type`,
    );
    expect(ledger.rows).toEqual([
      { entry_type: 'platform_fee', amount: 105 },
      { entry_type: 'sale', amount: -1_455 },
      { entry_type: 'vendor_share', amount: 1_350 },
    ]);
  });
});
