import { catalogRoutes, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createPlatformPlans } from '../../../test/factories/membership.ts';
import {
  atStripe,
  completeSandboxOnboarding,
  createBuyer,
  createCoupon,
  paySession,
  purchaseIdOfSession,
  sandboxPost,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { startPayoutOnboarding } from '../../../test/factories/two-factor.ts';
import type { TestApp } from '../../../test/harness.ts';
import { postSignedWebhook, postStripeEvent } from '../../../test/stripe-events.ts';
import { startStripeSandbox, type StripeSandboxHandle } from '../../../test/stripe-sandbox.ts';
import { processAutoRefunds } from './service.ts';

// Checkout as Stripe sees it: what the app asks Stripe for (the sandbox's request log), and the
// events Stripe sends back, from the sandbox's hosted pages or written by hand where Stripe sends
// something no click makes.

let stripe: StripeSandboxHandle;
let t: TestApp;
/** The official SDK on the sandbox, as support would use Stripe's dashboard or API. */
let sdk: Stripe;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
const VENDOR_ACCOUNT = 'acct_vendor_1';

beforeAll(async () => {
  stripe = await startStripeSandbox({ PLATFORM_FEE_BPS: '1000', PLATFORM_FEE_FIXED: '0' });
  t = stripe.t;
  const { hostname, port } = new URL(stripe.url);
  sdk = new Stripe(stripe.secretKey, { host: hostname, port, protocol: 'http' });
  vendor = await createVendor(t, { vendorUrl: 'stripe-vendor' });
  product = await createProduct(t, vendor.id, { title: 'Stripe Tool', amount: 8_000 });
  await stripe.sandbox.seedAccount({
    id: VENDOR_ACCOUNT,
    email: 'vendor@example.test',
    businessName: 'Stripe Vendor',
  });
  await t.database.db
    .execute(sql`insert into vendor_payment_accounts (vendor_id, provider, account_id, charges_enabled)
    values (${vendor.id}, 'stripe', ${VENDOR_ACCOUNT}, true)`);
});
afterAll(async () => {
  await stripe?.close();
});

const WEBHOOK_SECRET = () => t.config.STRIPE_WEBHOOK_SECRET!;
const signedPost = (payload: string, secret = WEBHOOK_SECRET()) =>
  postSignedWebhook(t, payload, secret);
const stripeEvent = (type: string, object: Record<string, unknown>, id: string) =>
  postStripeEvent(t, WEBHOOK_SECRET(), type, object, id);

/** The last checkout session the app asked Stripe for, as sent. */
const lastSession = async () => (await stripe.requestsTo('/v1/checkout/sessions')).at(-1)!.body;

async function checkout(buyer: { token: string }, body: Record<string, string>, key?: string) {
  const res = await t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl: vendor.vendorUrl },
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const sessionId = res.json().sessionId as string;
  const purchaseId = await purchaseIdOfSession(t, sessionId);
  return { sessionId, purchaseId, url: res.json().url as string };
}

const purchaseStatus = async (buyer: { token: string }, sessionId: string) =>
  (
    await t.call(ordersRoutes.purchaseStatus, { token: buyer.token, params: { id: sessionId } })
  ).json().purchase;

describe('checkout against the Stripe sandbox', () => {
  it('creates a Connect checkout session and fulfils on the signed completed webhook, once', async () => {
    const buyer = await createBuyer(t);
    const coupon = await createCoupon(t, vendor.id, { percentOff: 50 });
    const body = { priceId: product.priceId, coupon: coupon.code };
    const { sessionId, purchaseId, url } = await checkout(buyer, body, 'stripe-checkout-key-1');
    expect(new URL(url).pathname).toBe(`/sandbox/checkout/${sessionId}`);
    expect((await checkout(buyer, body, 'stripe-checkout-key-1')).sessionId).toBe(sessionId);

    const created = (await stripe.requestsTo('/v1/checkout/sessions')).filter(
      (r) => r.body['metadata[purchase_id]'] === purchaseId,
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '4000',
      'payment_intent_data[application_fee_amount]': '400',
      'payment_intent_data[transfer_data][destination]': VENDOR_ACCOUNT,
    });
    expect(created[0]!.body.success_url).toContain(
      '/orders/status?session_id={CHECKOUT_SESSION_ID}',
    );

    await paySession(t, sessionId);
    expect(await purchaseStatus(buyer, sessionId)).toMatchObject({
      status: 'paid',
      total: { amount: 4000 },
    });
    // Stripe sends an event again when it is not sure it arrived: the app applies it once.
    const [event] = (
      await t.database.db.execute<{ data: Record<string, unknown> }>(
        sql`select data from sandbox_stripe_events where type = 'checkout.session.completed'
          and data->'data'->'object'->>'id' = ${sessionId}`,
      )
    ).rows;
    const again = await signedPost(JSON.stringify(event!.data));
    expect(again.json().outcome).toBe('duplicate');
    const details = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: product.id },
    });
    expect(details.json().product.purchased).toBe(true);
  });

  it('refunds a subscription renewal named only by its payment intent, through the invoice it paid', async () => {
    const plan = await createProduct(t, vendor.id, {
      title: 'Stripe Signals',
      extraPrices: [1_500],
    });
    const buyer = await createBuyer(t);
    const c = await checkout(buyer, { priceId: plan.priceId, scheme: 'month' });
    await paySession(t, c.sessionId);
    const renewed = await sandboxPost(t, `/sandbox/payments/${c.sessionId}/renew`);
    expect(renewed.statusCode).toBe(303);

    // A refund of a payment nobody made cannot be matched yet: Stripe is asked to retry.
    const unknown = await stripeEvent(
      'charge.refunded',
      {
        id: 'ch_nobody',
        object: 'charge',
        amount: 1_500,
        amount_refunded: 1_500,
        currency: 'usd',
        payment_intent: 'pi_nobody_paid',
        metadata: {},
      },
      'evt_refund_unknown',
    );
    expect(unknown.statusCode).toBe(409);

    // Support refunds the renewal at Stripe: its charge carries no metadata, only the intent.
    const { subscriptionId } = await atStripe(t, c.purchaseId);
    const renewal = (await sdk.subscriptions.retrieve(subscriptionId!)).latest_invoice as string;
    expect((await sdk.invoices.retrieve(renewal)).billing_reason).toBe('subscription_cycle');
    const paidBy = await sdk.invoicePayments.list({ invoice: renewal });
    const intent = paidBy.data[0]!.payment.payment_intent as string;
    await sdk.refunds.create({ payment_intent: intent });
    const asked = (await stripe.requestsTo('/v1/invoice_payments')).at(-1)!;
    expect(asked.body).toMatchObject({
      'payment[type]': 'payment_intent',
      'payment[payment_intent]': intent,
    });

    expect(await purchaseStatus(buyer, c.sessionId)).toMatchObject({
      status: 'refunded',
      refunded: { amount: 1_500, currency: 'usd' },
    });
    // Only the renewal is reversed: the first month stays a sale.
    const vendorBalance = await t.database.db.execute(sql`select coalesce(sum(amount), 0)::int as n
      from ledger_entries where purchase_id = ${c.purchaseId} and account_type = 'vendor'`);
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
    expect(new URL(started.json().url).pathname).toMatch(/^\/sandbox\/connect\/acct_\w+\./);
    const accountId = (await stripe.requestsTo('/v1/account_links')).at(-1)!.body.account!;

    const pending = await t.call(ordersRoutes.connectAccountCallback, { token: sellerToken });
    expect(pending.json()).toMatchObject({ chargesEnabled: false });
    await completeSandboxOnboarding(t, started.json().url);
    const ready = await t.call(ordersRoutes.connectAccountCallback, { token: sellerToken });
    expect(ready.json()).toMatchObject({ chargesEnabled: true });

    const item = await createProduct(t, seller.id, { amount: 3_000 });
    const buyer = await createBuyer(t);
    await startProductCheckout(t, buyer, seller.vendorUrl, { priceId: item.priceId });
    expect(await lastSession()).toMatchObject({
      'payment_intent_data[transfer_data][destination]': accountId,
      'payment_intent_data[application_fee_amount]': '300',
    });

    // Anyone else onboards for affiliate payouts (ADR 037); a vendor's account stays for vendors.
    const notVendor = await startPayoutOnboarding(t, buyer.token, 'vendor');
    expect(notVendor.statusCode).toBe(403);
  });

  it('opens the Stripe billing portal for a subscriber', async () => {
    const buyer = await createBuyer(t);
    const plan = await createProduct(t, vendor.id, { title: 'Portal Feed', extraPrices: [900] });
    const c = await checkout(buyer, { priceId: plan.priceId, scheme: 'month' });
    await paySession(t, c.sessionId);
    const res = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(res.statusCode, res.body).toBe(200);
    const customer = (await sdk.checkout.sessions.retrieve(c.sessionId)).customer;
    expect(customer).toMatch(/^cus_/);
    expect((await stripe.requestsTo('/v1/billing_portal/sessions')).at(-1)!.body).toMatchObject({
      customer,
    });
    expect(new URL(res.json().session.url).pathname).toMatch(/^\/sandbox\/portal\//);
  });

  it('refunds a second paid checkout of an owned product at Stripe, once, even through an outage', async () => {
    const tool = await createProduct(t, vendor.id, { title: 'Stripe Twice', amount: 2_000 });
    const buyer = await createBuyer(t);
    const first = await checkout(buyer, { priceId: tool.priceId });
    const second = await checkout(buyer, { priceId: tool.priceId });
    await paySession(t, first.sessionId);
    // Stripe is down when the duplicate arrives (the SDK tries three times): the payment still
    // lands, the refund waits.
    stripe.failNext(3);
    await paySession(t, second.sessionId);
    expect(stripe.failedKeys.slice(-3)).toEqual(Array(3).fill(`dup-refund:${second.purchaseId}`));
    const owed = await t.database.db.execute(
      sql`select status from auto_refunds where purchase_id = ${second.purchaseId}`,
    );
    expect(owed.rows[0]).toMatchObject({ status: 'pending' });

    await t.database.db.execute(
      sql`update auto_refunds set next_attempt_at = now() where purchase_id = ${second.purchaseId}`,
    );
    expect(await processAutoRefunds(t.deps)).toBe(1);
    expect(await processAutoRefunds(t.deps)).toBe(0);
    const refunds = (await stripe.requestsTo('/v1/refunds')).filter(
      (r) => r.body['metadata[purchase_id]'] === second.purchaseId,
    );
    expect(refunds.map((r) => r.idempotencyKey)).toEqual([`dup-refund:${second.purchaseId}`]);
    expect(refunds[0]!.body).toMatchObject({ reason: 'duplicate' });
    expect((await atStripe(t, second.purchaseId)).refunds).toEqual([2_000]);

    // Stripe's own charge.refunded for it came back and settled it.
    expect(await purchaseStatus(buyer, second.sessionId)).toMatchObject({
      status: 'refunded',
      refundReason: 'duplicate',
      refunded: { amount: 2_000 },
    });
    expect(await purchaseStatus(buyer, first.sessionId)).toMatchObject({ status: 'paid' });
  });

  it('ends a duplicate subscription at Stripe and refunds its first invoice through its payment intent', async () => {
    const plan = await createProduct(t, vendor.id, {
      title: 'Stripe Sub Twice',
      extraPrices: [1_200],
    });
    const buyer = await createBuyer(t);
    const first = await checkout(buyer, { priceId: plan.priceId, scheme: 'month' });
    const second = await checkout(buyer, { priceId: plan.priceId, scheme: 'month' });
    await paySession(t, first.sessionId);
    await paySession(t, second.sessionId);
    const dup = await atStripe(t, second.purchaseId);
    const cancels = (await stripe.requestsTo(`/v1/subscriptions/${dup.subscriptionId}`)).filter(
      (r) => r.method === 'DELETE',
    );
    expect(cancels).toHaveLength(1);
    expect(dup).toMatchObject({ subscriptionStatus: 'canceled', refunds: [1_200] });
    const refund = (await stripe.requestsTo('/v1/refunds')).find(
      (r) => r.body['metadata[purchase_id]'] === second.purchaseId,
    )!;
    expect(refund.body.payment_intent).toMatch(/^pi_/);
    expect(await atStripe(t, first.purchaseId)).toMatchObject({
      subscriptionStatus: 'active',
      refunds: [],
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
    expect(await lastSession()).not.toHaveProperty('subscription_data[application_fee_percent]');
    await paySession(t, planRes.json().sessionId);

    // One-time, $80 at a 10 % fee: 3 % off is $2.40 of the $8.00 fee.
    const oneTime = await checkout(member, { priceId: product.priceId });
    expect(await lastSession()).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '7760',
      'payment_intent_data[application_fee_amount]': '560',
      'payment_intent_data[transfer_data][destination]': VENDOR_ACCOUNT,
    });
    expect(oneTime.purchaseId).toMatch(/^pur_/);

    // Subscription, $15 a month: member price $14.55, fee $1.50 − $0.45 = $1.05 = 7.21 % (rounded
    // down) of $14.55, so Stripe keeps $1.05 and the vendor nets $13.50, as from a non-member.
    const plan = await createProduct(t, vendor.id, { title: 'Member Feed', extraPrices: [1_500] });
    const sub = await checkout(member, { priceId: plan.extraPriceIds[0]! });
    const subBody = await lastSession();
    expect(subBody).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '1455',
      'line_items[0][price_data][product_data][name]': 'Member Feed (Premium member price)',
      'subscription_data[application_fee_percent]': '7.21',
    });
    expect(Math.round((1455 * 7.21) / 100)).toBe(105);
    expect(subBody).not.toHaveProperty('discounts[0][coupon]');

    await paySession(t, sub.sessionId);
    const ledger = await t.database.db.execute<{ entry_type: string; amount: number }>(
      sql`select entry_type, amount from ledger_entries where purchase_id = ${sub.purchaseId}
          order by entry_type`,
    );
    expect(ledger.rows).toEqual([
      { entry_type: 'platform_fee', amount: 105 },
      { entry_type: 'sale', amount: -1_455 },
      { entry_type: 'vendor_share', amount: 1_350 },
    ]);
  });
});
