import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.ts';
import { listen } from '../../../test/http.ts';
import { SANDBOX_STRIPE } from '../../config.ts';
import { TransferRefusedError } from './port.ts';
import { StripePayments } from './stripe.ts';
import type { StripeSandbox } from './stripe-sandbox.ts';

/*
 * The official SDK against the app's own Stripe sandbox (`/v1` on the app's port), over real HTTP:
 * every operation the adapter uses, Stripe's errors, idempotency and pagination, and the webhooks
 * it delivers, verified with the SDK's `constructEvent` and read by the adapter.
 */

const t = useTestApp();
let sandbox: StripeSandbox;
let stripe: Stripe;
let payments: StripePayments;
let origin: string;
/** Every webhook delivery, as the endpoint received it. */
const deliveries: Array<{ body: string; signature: string }> = [];
/** Status the endpoint answers with next (then 200 again). */
let nextStatus: number[] = [];

beforeAll(async () => {
  sandbox = t.deps.stripeSandbox!;
  sandbox.setTransport(async (body, signature) => {
    deliveries.push({ body, signature });
    return nextStatus.shift() ?? 200;
  });
  const port = await listen(t.app);
  origin = `http://127.0.0.1:${port}`;
  stripe = new Stripe(SANDBOX_STRIPE.secretKey, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  payments = new StripePayments({
    secretKey: SANDBOX_STRIPE.secretKey,
    webhookSecret: SANDBOX_STRIPE.webhookSecret,
    apiUrl: origin,
  });
});

beforeEach(() => {
  nextStatus = [];
});

/** The deliveries since `from`, each verified with the SDK as a real endpoint verifies them. */
function eventsSince(from: number): Stripe.Event[] {
  return deliveries
    .slice(from)
    .map((d) => stripe.webhooks.constructEvent(d.body, d.signature, SANDBOX_STRIPE.webhookSecret));
}

/** The one delivery of `type` since `from`, mapped by the adapter exactly as the app maps it. */
async function delivered(from: number, type: string) {
  const found = deliveries.slice(from).filter((d) => JSON.parse(d.body).type === type);
  expect(found, type).toHaveLength(1);
  const d = found[0]!;
  const headers = { 'stripe-signature': d.signature };
  return {
    event: stripe.webhooks.constructEvent(d.body, d.signature, SANDBOX_STRIPE.webhookSecret),
    payment: await payments.parseWebhook(Buffer.from(d.body), headers),
    transfer: payments.parseTransferWebhook(Buffer.from(d.body), headers),
  };
}

const buyerEmail = () => `buyer-${randomUUID().slice(0, 8)}@example.test`;

describe('keys, errors and idempotency', () => {
  it("refuses another key with Stripe's 401 and no key at all", async () => {
    const other = new Stripe('sk_test_someone_else_123456', {
      host: '127.0.0.1',
      port: Number(new URL(origin).port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const err = await other.customers.create({ email: 'x@example.test' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(401);
    expect((err as Error).message).toMatch(/^Invalid API Key provided: sk_test_\*+3456$/);

    const bare = await fetch(`${origin}/v1/customers`, { method: 'POST' });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(/did not provide an API key/),
      },
    });

    // Basic auth with the key as the user name, as `curl -u sk_test_…:` in Stripe's examples.
    const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const ok = await fetch(`${origin}/v1/customers?limit=1`, {
      headers: { authorization: basic(SANDBOX_STRIPE.secretKey) },
    });
    expect(ok.status).toBe(200);
    const wrong = await fetch(`${origin}/v1/customers?limit=1`, {
      headers: { authorization: basic('sk_test_someone_else_123456') },
    });
    expect(wrong.status).toBe(401);
  });

  it('answers an unknown path and a missing object as Stripe does', async () => {
    const res = await fetch(`${origin}/v1/nothing_here`, {
      headers: { authorization: `Bearer ${SANDBOX_STRIPE.secretKey}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^Unrecognized request URL \(GET: \/v1\/nothing_here\)/,
    );

    const err = (await stripe.customers
      .retrieve('cus_missing')
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err.statusCode).toBe(404);
    expect(err.code).toBe('resource_missing');
    expect(err.param).toBe('id');
    expect(err.message).toBe("No such customer: 'cus_missing'");
  });

  it('answers a repeated key with the first answer, and refuses it with other parameters', async () => {
    const key = `idem-${randomUUID()}`;
    const email = buyerEmail();
    const first = await stripe.customers.create(
      { email, metadata: { user_id: 'u1' } },
      { idempotencyKey: key },
    );
    const again = await stripe.customers.create(
      { email, metadata: { user_id: 'u1' } },
      { idempotencyKey: key },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first).toMatchObject({
      object: 'customer',
      email,
      metadata: { user_id: 'u1' },
      livemode: false,
      balance: 0,
    });
    expect(first.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    expect(first.created).toBeGreaterThan(Date.now() / 1000 - 60);

    const err = await stripe.customers
      .create({ email: 'other@example.test' }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(400);
    expect((err as Stripe.errors.StripeError).type).toBe('StripeIdempotencyError');

    // A failure is kept too: the same key and body fail the same way.
    const k2 = `idem-${randomUUID()}`;
    const c1 = await stripe.coupons.create({
      id: `dup-${k2}`,
      amount_off: 100,
      currency: 'eur',
      duration: 'once',
    });
    expect(c1).toMatchObject({ object: 'coupon', amount_off: 100, valid: true, times_redeemed: 0 });
    const e1 = (await stripe.coupons
      .create(
        { id: c1.id, amount_off: 100, currency: 'eur', duration: 'once' },
        { idempotencyKey: k2 },
      )
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(e1.code).toBe('resource_already_exists');
    const e2 = (await stripe.coupons
      .create(
        { id: c1.id, amount_off: 100, currency: 'eur', duration: 'once' },
        { idempotencyKey: k2 },
      )
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(e2.code).toBe('resource_already_exists');
  });

  it("refuses bad parameters with Stripe's error body", async () => {
    const err = (await stripe.checkout.sessions
      .create({
        mode: 'payment',
        success_url: 'https://shop.test/ok',
        line_items: [{ quantity: 1 }],
      })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err.statusCode).toBe(400);
    expect(err.param).toBe('line_items[0][price_data]');

    const raw = await fetch(`${origin}/v1/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SANDBOX_STRIPE.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'payment_intent=pi_nope&amount=12x',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: 'Invalid integer: 12x',
      },
    });
  });
});

describe('checkout in payment mode, refunds and disputes', () => {
  it('creates, completes, refunds in part and in full, and disputes a payment', async () => {
    const account = await stripe.accounts.create({ type: 'express', email: 'v@example.test' });
    const purchaseId = `pur_${randomUUID()}`;
    const session = await payments.createCheckout({
      purchaseId,
      mode: 'payment',
      item: { name: 'Ceramic mug', amount: 2500, currency: 'eur', interval: null },
      discount: { amountOff: 500, duration: 'once', couponId: 'spring' },
      trialDays: null,
      buyer: { userId: 'usr_1', email: 'buyer@example.test', customerId: null },
      connectedAccountId: account.id,
      applicationFeeAmount: 155,
      applicationFeePercent: 5,
      successUrl: 'https://shop.test/done?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://shop.test/cancelled',
      idempotencyKey: `checkout-${purchaseId}`,
    });
    expect(session.sessionId).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);
    expect(session.url).toBe(
      `http://localhost:${t.config.PORT}/sandbox/checkout/${session.sessionId}`,
    );
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const open = await stripe.checkout.sessions.retrieve(session.sessionId);
    expect(open).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: 2000,
      amount_total: 2000,
      currency: 'eur',
      client_reference_id: purchaseId,
      metadata: { purchase_id: purchaseId },
      customer: null,
      customer_email: 'buyer@example.test',
      livemode: false,
      payment_intent: null,
    });

    const from = deliveries.length;
    const paid = await sandbox.completeCheckoutSession(session.sessionId);
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const completed = await delivered(from, 'checkout.session.completed');
    expect(completed.event.data.object).toMatchObject({
      id: session.sessionId,
      status: 'complete',
    });
    expect(completed.payment).toMatchObject({
      type: 'checkout.completed',
      purchaseId,
      amount: 2000,
      currency: 'eur',
      paymentRef: paid!.payment_intent,
    });
    const charge = (await delivered(from, 'charge.succeeded')).event.data.object as Stripe.Charge;
    expect(charge).toMatchObject({
      amount: 2000,
      application_fee_amount: 155,
      transfer_data: { destination: account.id },
      metadata: { purchase_id: purchaseId },
    });
    // A second Pay changes nothing.
    await sandbox.completeCheckoutSession(session.sessionId);
    expect(deliveries.length).toBe(from + 2);

    const pi = paid!.payment_intent as string;
    const r1 = deliveries.length;
    await payments.refund({
      paymentRef: pi,
      purchaseId,
      amount: 800,
      reason: 'vendor',
      note: 'Chipped',
      idempotencyKey: `refund-${purchaseId}-1`,
    });
    const partial = await delivered(r1, 'charge.refunded');
    expect(partial.payment).toMatchObject({
      type: 'refund',
      purchaseId,
      paymentRef: pi,
      amount: 800,
    });
    expect((await delivered(r1, 'refund.created')).event.data.object).toMatchObject({
      object: 'refund',
      amount: 800,
      reason: 'requested_by_customer',
      payment_intent: pi,
      status: 'succeeded',
      metadata: { purchase_id: purchaseId, vendor_reason: 'Chipped' },
    });

    const tooMuch = (await stripe.refunds
      .create({ payment_intent: pi, amount: 1201 })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(tooMuch.code).toBe('amount_too_large');

    const r2 = deliveries.length;
    await payments.refund({
      paymentRef: pi,
      purchaseId,
      reason: 'duplicate',
      idempotencyKey: `refund-${purchaseId}-2`,
    });
    expect((await delivered(r2, 'charge.refunded')).payment).toMatchObject({ amount: 2000 });
    // Nothing is left: Stripe's charge_already_refunded, which a duplicate refund takes as done.
    const again = (await stripe.refunds
      .create({ payment_intent: pi })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(again.code).toBe('charge_already_refunded');
    await expect(
      payments.refund({
        paymentRef: pi,
        purchaseId,
        reason: 'duplicate',
        idempotencyKey: `refund-${purchaseId}-3`,
      }),
    ).resolves.toBeUndefined();

    const d = deliveries.length;
    expect(await sandbox.disputeSession(session.sessionId)).toBe(true);
    expect((await delivered(d, 'charge.dispute.created')).payment).toMatchObject({
      type: 'dispute',
      purchaseId: null,
      paymentRef: pi,
      amount: 2000,
    });
  });

  it('expires an open session with checkout.session.expired', async () => {
    const purchaseId = `pur_${randomUUID()}`;
    const s = await stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: purchaseId,
      metadata: { purchase_id: purchaseId },
      success_url: 'https://shop.test/ok',
      cancel_url: 'https://shop.test/no',
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'usd', unit_amount: 900, product_data: { name: 'Plan' } },
        },
      ],
    });
    const from = deliveries.length;
    const expired = await stripe.checkout.sessions.expire(s.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    expect((await delivered(from, 'checkout.session.expired')).payment).toMatchObject({
      type: 'checkout.expired',
      purchaseId,
    });
    const twice = (await stripe.checkout.sessions
      .expire(s.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(twice.statusCode).toBe(400);
  });
});

describe('subscriptions', () => {
  it('starts with a trial and a coupon, renews, fails a renewal, cancels at period end, resumes and ends', async () => {
    const purchaseId = `pur_${randomUUID()}`;
    const customerId = await payments.ensureCustomer({
      userId: `usr_${purchaseId}`,
      vendorId: 'ven_1',
      email: buyerEmail(),
      customerId: null,
    });
    const session = await payments.createCheckout({
      purchaseId,
      mode: 'subscription',
      item: { name: 'Coffee club', amount: 4500, currency: 'usd', interval: 'quarter' },
      discount: {
        amountOff: 1000,
        duration: 'once',
        couponId: `welcome-${purchaseId.slice(4, 12)}`,
      },
      trialDays: 14,
      buyer: { userId: 'usr_2', email: 'b@example.test', customerId },
      connectedAccountId: null,
      applicationFeeAmount: 0,
      applicationFeePercent: 7.5,
      successUrl: 'https://shop.test/ok',
      cancelUrl: 'https://shop.test/no',
      idempotencyKey: `checkout-${purchaseId}`,
    });
    const from = deliveries.length;
    const done = await sandbox.completeCheckoutSession(session.sessionId);
    expect(done).toMatchObject({
      payment_status: 'no_payment_required',
      customer: customerId,
      amount_total: 0,
    });
    const completed = (await delivered(from, 'checkout.session.completed')).payment!;
    expect(completed).toMatchObject({
      type: 'checkout.completed',
      purchaseId,
      amount: 0,
      paymentRef: done!.invoice,
      subscriptionId: done!.subscription,
      customerId,
    });
    // The first invoice is checkout's: the adapter ignores it.
    expect((await delivered(from, 'invoice.paid')).payment).toBeNull();
    const subId = done!.subscription as string;
    const sub = await stripe.subscriptions.retrieve(subId);
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'trialing',
      customer: customerId,
      metadata: { purchase_id: purchaseId },
      items: {
        data: [
          { price: { unit_amount: 4500, recurring: { interval: 'month', interval_count: 3 } } },
        ],
      },
    });
    const trialEnd = sub.items.data[0]!.current_period_end;
    expect(trialEnd - sub.created).toBe(14 * 86_400);

    // The first charge after the trial takes the first-payment coupon off.
    const r1 = deliveries.length;
    const invoice = await sandbox.renewSubscription(subId);
    const renewed = (await delivered(r1, 'invoice.paid')).payment!;
    expect(renewed).toMatchObject({
      type: 'subscription.renewed',
      purchaseId,
      paymentRef: invoice!.id,
      amount: 3500,
      subscriptionId: subId,
      customerId,
    });
    expect(renewed.periodEnd!.getTime()).toBeGreaterThan(trialEnd * 1000);
    // A refund of that payment finds its payment intent through the invoice, and back.
    const paidBy = await stripe.invoicePayments.list({ invoice: invoice!.id });
    const pi = paidBy.data[0]!.payment.payment_intent as string;
    expect(await payments.paymentAliases(pi)).toEqual([invoice!.id]);
    const rr = deliveries.length;
    await payments.refund({
      paymentRef: invoice!.id,
      purchaseId,
      reason: 'vendor',
      idempotencyKey: `r-${purchaseId}`,
    });
    expect((await delivered(rr, 'charge.refunded')).payment).toMatchObject({
      paymentRef: pi,
      amount: 3500,
      purchaseId: null,
    });

    const r2 = deliveries.length;
    await sandbox.renewSubscription(subId);
    expect((await delivered(r2, 'invoice.paid')).payment).toMatchObject({ amount: 4500 });

    const f = deliveries.length;
    await sandbox.renewSubscription(subId, true);
    expect((await delivered(f, 'invoice.payment_failed')).payment).toMatchObject({
      type: 'payment.failed',
      purchaseId,
      amount: 4500,
    });

    const c = deliveries.length;
    await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
    const cancelling = await delivered(c, 'customer.subscription.updated');
    expect(cancelling.payment).toMatchObject({
      type: 'subscription.updated',
      cancelAtPeriodEnd: true,
      purchaseId,
    });
    expect(cancelling.event.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
    });
    const u = deliveries.length;
    await stripe.subscriptions.update(subId, { cancel_at_period_end: false });
    expect((await delivered(u, 'customer.subscription.updated')).payment).toMatchObject({
      cancelAtPeriodEnd: false,
    });

    const e = deliveries.length;
    await payments.cancelSubscription({ subscriptionId: subId });
    expect((await delivered(e, 'customer.subscription.deleted')).payment).toMatchObject({
      type: 'subscription.ended',
      purchaseId,
      subscriptionId: subId,
    });
    // A second cancel is Stripe's resource_missing, which the adapter takes as done.
    const gone = (await stripe.subscriptions
      .cancel(subId)
      .catch((x: unknown) => x)) as Stripe.errors.StripeError;
    expect(gone.code).toBe('resource_missing');
    await expect(payments.cancelSubscription({ subscriptionId: subId })).resolves.toBeUndefined();
    const paused = (await stripe.subscriptions
      .resume(subId)
      .catch((x: unknown) => x)) as Stripe.errors.StripeError;
    expect(paused.statusCode).toBe(400);
  });

  it('opens a billing portal session for a known customer only', async () => {
    const c = await stripe.customers.create({ email: buyerEmail() });
    const { url } = await payments.createPortal({
      customerId: c.id,
      returnUrl: 'https://shop.test/account',
    });
    expect(url).toMatch(
      new RegExp(`^http://localhost:${t.config.PORT}/sandbox/portal/bps_[A-Za-z0-9]+$`),
    );
    const err = (await stripe.billingPortal.sessions
      .create({ customer: 'cus_nobody' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(err).toMatchObject({ code: 'resource_missing', param: 'customer', statusCode: 400 });
  });
});

describe('Connect: accounts, links, transfers and reversals', () => {
  it('onboards an account, reports account.updated, and pays and reverses a transfer', async () => {
    const { accountId, url } = await payments.createConnectOnboarding({
      accountId: null,
      email: 'affiliate@example.test',
      refreshUrl: 'https://shop.test/refresh',
      returnUrl: 'https://shop.test/return',
    });
    expect(accountId).toMatch(/^acct_[A-Za-z0-9]{16}$/);
    expect(url).toContain(`/sandbox/connect/${accountId}.`);
    expect(await payments.connectAccountStatus(accountId)).toMatchObject({
      chargesEnabled: false,
      detailsSubmitted: false,
      disabledCode: 'requirements.past_due',
    });
    const unknown = (await stripe.accounts
      .retrieve('acct_unknown')
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(unknown).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(unknown.code).toBe('account_invalid');

    // Not enabled yet: Stripe refuses the transfer, the adapter says so for good.
    await expect(
      payments.transfer({
        accountId,
        amount: 500,
        currency: 'eur',
        idempotencyKey: `tr-${accountId}-0`,
        metadata: {},
      }),
    ).rejects.toBeInstanceOf(TransferRefusedError);

    const a = deliveries.length;
    await sandbox.setAccountState(accountId, 'pending_verification', 'Affiliate Ltd');
    expect((await delivered(a, 'account.updated')).event.data.object).toMatchObject({
      details_submitted: true,
      charges_enabled: false,
      requirements: { disabled_reason: 'requirements.pending_verification' },
    });
    await sandbox.setAccountState(accountId, 'active');
    expect(await payments.connectAccountStatus(accountId)).toEqual({
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirements: [],
      disabledCode: null,
      disabledReason: null,
    });

    const tr0 = deliveries.length;
    const { transferId } = await payments.transfer({
      accountId,
      amount: 1234,
      currency: 'eur',
      idempotencyKey: `tr-${accountId}-1`,
      metadata: { payout_id: 'pay_1' },
    });
    expect(transferId).toMatch(/^tr_/);
    expect((await delivered(tr0, 'transfer.created')).transfer).toMatchObject({
      type: 'transfer.paid',
      transferId,
      payoutId: 'pay_1',
      amount: 1234,
    });
    const repeat = await payments.transfer({
      accountId,
      amount: 1234,
      currency: 'eur',
      idempotencyKey: `tr-${accountId}-1`,
      metadata: { payout_id: 'pay_1' },
    });
    expect(repeat.transferId).toBe(transferId);

    const rv = deliveries.length;
    const reversal = await stripe.transfers.createReversal(transferId, { amount: 234 });
    expect(reversal).toMatchObject({
      object: 'transfer_reversal',
      amount: 234,
      transfer: transferId,
    });
    expect((await delivered(rv, 'transfer.reversed')).transfer).toMatchObject({
      type: 'transfer.reversed',
      transferId,
      payoutId: 'pay_1',
      amount: 234,
    });
    expect(await stripe.transfers.retrieve(transferId)).toMatchObject({
      amount_reversed: 234,
      reversed: false,
    });
    expect(await sandbox.reverseTransferNow(transferId, 'by hand')).toBe(true);
    expect(await stripe.transfers.retrieve(transferId)).toMatchObject({
      amount_reversed: 1234,
      reversed: true,
    });
  });
});

describe('events and webhook deliveries', () => {
  it('lists events newest first, a page at a time, as delivered', async () => {
    const first = await stripe.events.list({ limit: 3 });
    expect(first.object).toBe('list');
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const second = await stripe.events.list({ limit: 3, starting_after: first.data[2]!.id });
    expect(second.data[0]!.created).toBeLessThanOrEqual(first.data[2]!.created);
    expect(new Set([...first.data, ...second.data].map((e) => e.id)).size).toBe(6);

    const all: Stripe.Event[] = [];
    for await (const e of stripe.events.list({ limit: 100 })) all.push(e);
    const verified = eventsSince(0);
    expect(all.map((e) => e.id).sort()).toEqual(verified.map((e) => e.id).sort());
    const one = await stripe.events.retrieve(verified[0]!.id);
    expect(one).toMatchObject({
      object: 'event',
      api_version: '2026-10-28.endive',
      livemode: false,
      type: verified[0]!.type,
    });
    expect(one.id).toMatch(/^evt_/);

    const refunds = await stripe.events.list({ type: 'charge.refunded', limit: 100 });
    expect(refunds.data.length).toBeGreaterThan(0);
    expect(refunds.data.every((e) => e.type === 'charge.refunded')).toBe(true);
  });

  it('retries a delivery the endpoint refused, and signs each attempt afresh', async () => {
    nextStatus = [500];
    const from = deliveries.length;
    const c = await stripe.customers.create({ email: buyerEmail() });
    expect(deliveries.length).toBe(from + 1);
    const [event] = await sandbox.recentEvents(1);
    expect(event).toMatchObject({
      type: 'customer.created',
      attempts: 1,
      lastStatus: 500,
      deliveredAt: null,
    });
    expect(event!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: the sweep leaves it, and forgets requests (idempotency keys) older than a day.
    await t.database.db.execute(sql`update sandbox_stripe_requests
      set created_at = now() - interval '25 hours' where path = '/v1/coupons'`);
    expect(await sandbox.sendDue()).toBe(0);
    const left = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_requests where path = '/v1/coupons'`,
    );
    expect(left.rows[0]!.n).toBe(0);
    expect(await sandbox.retry(event!.id)).toBe(true);
    const retried = eventsSince(from);
    expect(retried.map((e) => e.id)).toEqual([event!.id, event!.id]);
    expect((retried[1]!.data.object as Stripe.Customer).id).toBe(c.id);
    // Another secret does not verify it.
    const last = deliveries.at(-1)!;
    expect(() =>
      stripe.webhooks.constructEvent(last.body, last.signature, 'whsec_other'),
    ).toThrow();
  });
});
