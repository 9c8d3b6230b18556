import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeSandbox, type StripeSandboxHandle } from '../../../test/stripe-sandbox.ts';
import { WebhookSignatureError, type CheckoutRequest } from './port.ts';
import { StripePayments } from './stripe.ts';

// The adapter against the app's own Stripe sandbox (`/v1`), over real HTTP with the official SDK.
let fake: StripeSandboxHandle;
let payments: StripePayments;
let stripe: Stripe;
let WEBHOOK_SECRET: string;
/** A connected account the sandbox knows, as destination of the checkouts below. */
let vendorAccount: string;

beforeAll(async () => {
  fake = await startStripeSandbox();
  WEBHOOK_SECRET = fake.webhookSecret;
  payments = new StripePayments({
    secretKey: fake.secretKey,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.url,
  });
  const { port, hostname } = new URL(fake.url);
  stripe = new Stripe(fake.secretKey, { host: hostname, port, protocol: 'http' });
  vendorAccount = (await stripe.accounts.create({ type: 'express' })).id;
});

afterAll(async () => {
  await fake?.close();
});

function checkoutRequest(over: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    purchaseId: `pur_${randomUUID()}`,
    mode: 'payment',
    item: { name: 'Ceramic mug', amount: 2500, currency: 'eur', interval: null },
    discount: null,
    trialDays: null,
    buyer: { userId: 'usr_1', email: 'buyer@example.test', customerId: null },
    connectedAccountId: vendorAccount,
    applicationFeeAmount: 155,
    applicationFeePercent: 5,
    successUrl: 'https://shop.test/checkout/done?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://shop.test/checkout/cancelled',
    idempotencyKey: `checkout-${randomUUID()}`,
    ...over,
  };
}

/** The checkout-session request carrying this purchase (the last one when retried). */
async function sessionRequest(purchaseId: string) {
  const found = (await fake.requestsTo('/v1/checkout/sessions')).filter(
    (r) => r.body.client_reference_id === purchaseId,
  );
  expect(found.length).toBeGreaterThan(0);
  return found.at(-1)!;
}

describe('StripePayments.createCheckout', () => {
  it('sends a payment-mode session with the discounted price, fee and destination', async () => {
    const req = checkoutRequest({
      discount: { amountOff: 500, duration: 'once', couponId: 'spring' },
    });
    const couponsBefore = (await fake.requestsTo('/v1/coupons')).length;

    const session = await payments.createCheckout(req);

    const sent = await sessionRequest(req.purchaseId);
    expect(sent.method).toBe('POST');
    expect(sent.idempotencyKey).toBe(req.idempotencyKey);
    expect(sent.body).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '2000',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][product_data][name]': 'Ceramic mug',
      client_reference_id: req.purchaseId,
      'metadata[purchase_id]': req.purchaseId,
      customer_email: 'buyer@example.test',
      success_url: 'https://shop.test/checkout/done?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.test/checkout/cancelled',
      'payment_intent_data[metadata][purchase_id]': req.purchaseId,
      'payment_intent_data[application_fee_amount]': '155',
      'payment_intent_data[transfer_data][destination]': vendorAccount,
    });
    expect(sent.body).not.toHaveProperty('customer');
    expect(sent.body).not.toHaveProperty('line_items[0][price_data][recurring][interval]');
    expect(Object.keys(sent.body).some((k) => k.startsWith('subscription_data'))).toBe(false);
    expect(Object.keys(sent.body).some((k) => k.startsWith('discounts'))).toBe(false);
    // A one-off discount is priced in, not sent as a Stripe coupon.
    expect(await fake.requestsTo('/v1/coupons')).toHaveLength(couponsBefore);

    expect(session.sessionId).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(session.url).toBe(
      `http://localhost:${fake.t.config.PORT}/sandbox/checkout/${session.sessionId}`,
    );
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it('returns the same session when retried with the same idempotency key', async () => {
    const req = checkoutRequest();
    const first = await payments.createCheckout(req);
    const second = await payments.createCheckout(req);

    expect(second).toEqual(first);
    const sent = (await fake.requestsTo('/v1/checkout/sessions')).filter(
      (r) => r.body.client_reference_id === req.purchaseId,
    );
    expect(sent.map((r) => r.idempotencyKey)).toEqual([req.idempotencyKey, req.idempotencyKey]);
    expect(sent.map((r) => r.replayed)).toEqual([false, true]);

    const other = await payments.createCheckout({ ...req, idempotencyKey: `k-${randomUUID()}` });
    expect(other.sessionId).not.toBe(first.sessionId);
  });

  it('retries a failed request with the same idempotency key', async () => {
    const req = checkoutRequest();
    fake.failNext(1);

    const session = await payments.createCheckout(req);

    // The first attempt got a 500 before reaching the sandbox; the retry carried the same key.
    expect(fake.failedKeys.at(-1)).toBe(req.idempotencyKey);
    const sent = (await fake.requestsTo('/v1/checkout/sessions')).filter(
      (r) => r.body.client_reference_id === req.purchaseId,
    );
    expect(sent.map((r) => r.idempotencyKey)).toEqual([req.idempotencyKey]);
    expect(session.sessionId).toMatch(/^cs_test_/);
  });

  it('sends no fee or destination without a connected account, and an existing customer', async () => {
    const existing = (await stripe.customers.create({ email: 'known@example.test' })).id;
    const req = checkoutRequest({
      connectedAccountId: null,
      buyer: { userId: 'usr_2', email: 'known@example.test', customerId: existing },
    });
    await payments.createCheckout(req);

    const { body } = await sessionRequest(req.purchaseId);
    expect(body.customer).toBe(existing);
    expect(body).not.toHaveProperty('customer_email');
    expect(body['payment_intent_data[metadata][purchase_id]']).toBe(req.purchaseId);
    expect(body['line_items[0][price_data][unit_amount]']).toBe('2500');
    const keys = Object.keys(body);
    expect(keys.filter((k) => /application_fee|transfer_data/.test(k))).toEqual([]);
  });

  it('sends a quarterly subscription as every 3 months with trial and fee percent', async () => {
    const req = checkoutRequest({
      mode: 'subscription',
      item: { name: 'Coffee club', amount: 4500, currency: 'usd', interval: 'quarter' },
      trialDays: 14,
      applicationFeePercent: 7.5,
    });
    await payments.createCheckout(req);

    const { body } = await sessionRequest(req.purchaseId);
    expect(body).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '4500',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][recurring][interval_count]': '3',
      'metadata[purchase_id]': req.purchaseId,
      'subscription_data[metadata][purchase_id]': req.purchaseId,
      'subscription_data[trial_period_days]': '14',
      'subscription_data[application_fee_percent]': '7.5',
      'subscription_data[transfer_data][destination]': vendorAccount,
    });
    expect(Object.keys(body).some((k) => k.startsWith('payment_intent_data'))).toBe(false);
  });

  it.each([
    ['week', 'week', '1'],
    ['month', 'month', '1'],
    ['year', 'year', '1'],
  ] as const)('maps a %s interval to %s x%s', async (interval, stripeInterval, count) => {
    const req = checkoutRequest({
      mode: 'subscription',
      connectedAccountId: null,
      item: { name: 'Plan', amount: 900, currency: 'eur', interval },
    });
    await payments.createCheckout(req);

    const { body } = await sessionRequest(req.purchaseId);
    expect(body['line_items[0][price_data][recurring][interval]']).toBe(stripeInterval);
    expect(body['line_items[0][price_data][recurring][interval_count]']).toBe(count);
    expect(body).not.toHaveProperty('subscription_data[trial_period_days]');
    expect(body).not.toHaveProperty('subscription_data[application_fee_percent]');
    expect(body).not.toHaveProperty('subscription_data[transfer_data][destination]');
  });

  it('creates a subscription coupon once and reuses it', async () => {
    const couponId = `welcome-${randomUUID().slice(0, 8)}`;
    const discount = { amountOff: 1000, duration: 'once' as const, couponId };
    const expectedId = `ts_${couponId}_1000_usd_once`;
    const sub = (over: Partial<CheckoutRequest> = {}) =>
      checkoutRequest({
        mode: 'subscription',
        item: { name: 'Coffee club', amount: 4500, currency: 'usd', interval: 'month' },
        discount,
        ...over,
      });

    const a = sub();
    const b = sub();
    await payments.createCheckout(a);
    await payments.createCheckout(b);

    const couponCalls = (await fake.requestsTo('/v1/coupons')).filter(
      (r) => r.body.id === expectedId,
    );
    expect(couponCalls).toHaveLength(2);
    expect(couponCalls[0]!.body).toEqual({
      id: expectedId,
      amount_off: '1000',
      currency: 'usd',
      duration: 'once',
    });
    for (const req of [a, b]) {
      const { body } = await sessionRequest(req.purchaseId);
      expect(body['discounts[0][coupon]']).toBe(expectedId);
      // The subscription is charged the full price; the coupon takes the discount off.
      expect(body['line_items[0][price_data][unit_amount]']).toBe('4500');
    }

    const forever = sub({ discount: { ...discount, duration: 'forever' } });
    await payments.createCheckout(forever);
    expect((await sessionRequest(forever.purchaseId)).body['discounts[0][coupon]']).toBe(
      `ts_${couponId}_1000_usd_forever`,
    );
  });

  it('refuses a subscription without an interval before calling Stripe', async () => {
    const req = checkoutRequest({ mode: 'subscription' });
    await expect(payments.createCheckout(req)).rejects.toThrow(/interval/);
    expect(
      (await fake.requestsTo('/v1/checkout/sessions')).some(
        (r) => r.body.client_reference_id === req.purchaseId,
      ),
    ).toBe(false);
  });

  it('surfaces Stripe errors', async () => {
    const bad = new StripePayments({
      secretKey: 'rk_wrong',
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: fake.url,
    });
    await expect(bad.createCheckout(checkoutRequest())).rejects.toBeInstanceOf(
      Stripe.errors.StripeError,
    );
  });
});

describe('StripePayments portal, Connect and customers', () => {
  it('creates a billing portal session', async () => {
    const customer = (await stripe.customers.create({ email: 'portal@example.test' })).id;
    const { url } = await payments.createPortal({
      customerId: customer,
      returnUrl: 'https://shop.test/account',
    });

    const sent = (await fake.requestsTo('/v1/billing_portal/sessions')).at(-1)!;
    expect(sent.body).toEqual({ customer, return_url: 'https://shop.test/account' });
    expect(url).toMatch(/\/sandbox\/portal\/bps_[A-Za-z0-9]+$/);
  });

  it('creates an Express account and its onboarding link', async () => {
    const accountsBefore = (await fake.requestsTo('/v1/accounts')).length;
    const result = await payments.createConnectOnboarding({
      accountId: null,
      email: 'vendor@example.test',
      refreshUrl: 'https://shop.test/vendor/connect/refresh',
      returnUrl: 'https://shop.test/vendor/connect/done',
    });

    const accounts = await fake.requestsTo('/v1/accounts');
    expect(accounts).toHaveLength(accountsBefore + 1);
    expect(accounts.at(-1)!.body).toEqual({
      type: 'express',
      email: 'vendor@example.test',
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
    });
    expect(result.accountId).toMatch(/^acct_[A-Za-z0-9]+$/);
    expect((await fake.requestsTo('/v1/account_links')).at(-1)!.body).toEqual({
      account: result.accountId,
      refresh_url: 'https://shop.test/vendor/connect/refresh',
      return_url: 'https://shop.test/vendor/connect/done',
      type: 'account_onboarding',
    });
    expect(result.url).toContain(result.accountId);
  });

  it('reuses an existing connected account', async () => {
    const known = vendorAccount;
    const accountsBefore = (await fake.requestsTo('/v1/accounts')).length;
    const result = await payments.createConnectOnboarding({
      accountId: known,
      email: 'vendor@example.test',
      refreshUrl: 'https://shop.test/r',
      returnUrl: 'https://shop.test/d',
    });

    expect(await fake.requestsTo('/v1/accounts')).toHaveLength(accountsBefore);
    expect(result.accountId).toBe(known);
    expect((await fake.requestsTo('/v1/account_links')).at(-1)!.body.account).toBe(known);
    expect(result.url).toContain(known);
  });

  it('says what a connected account still needs, in words, as onboarding goes on', async () => {
    const words = (await stripe.accounts.create({ type: 'express' })).id;
    const fresh = await payments.connectAccountStatus(words);
    expect(fresh).toEqual({
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirements: [
        'Add your website or a public page about your business.',
        'Add the bank account your payouts go to.',
        'Add your date of birth.',
        'Upload an identity document (passport, ID card or driving licence).',
        'Accept the payment provider’s services agreement.',
      ],
      disabledCode: 'requirements.past_due',
      disabledReason:
        'Some details are overdue: the account cannot take payments until they are added.',
    });
    expect((await fake.requestsTo(`/v1/accounts/${words}`)).at(-1)!.method).toBe('GET');

    await fake.sandbox.setAccountState(words, 'pending_verification');
    expect(await payments.connectAccountStatus(words)).toMatchObject({
      detailsSubmitted: true,
      requirements: [],
      disabledCode: 'requirements.pending_verification',
      disabledReason: 'The payment provider is verifying your details.',
    });

    await fake.sandbox.setAccountState(words, 'active');
    expect(await payments.connectAccountStatus(words)).toMatchObject({
      chargesEnabled: true,
      payoutsEnabled: true,
      requirements: [],
      disabledCode: null,
      disabledReason: null,
    });
  });

  it('creates a customer only when the buyer has none', async () => {
    const before = (await fake.requestsTo('/v1/customers')).length;
    await expect(
      payments.ensureCustomer({
        userId: 'usr_9',
        vendorId: 'ven_1',
        email: 'b@example.test',
        customerId: 'cus_kept',
      }),
    ).resolves.toBe('cus_kept');
    expect(await fake.requestsTo('/v1/customers')).toHaveLength(before);

    const created = await payments.ensureCustomer({
      userId: 'usr_9',
      vendorId: 'ven_1',
      email: 'b@example.test',
      customerId: null,
    });
    expect(created).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    const sent = (await fake.requestsTo('/v1/customers')).at(-1)!;
    expect(sent.body).toEqual({
      email: 'b@example.test',
      'metadata[user_id]': 'usr_9',
      'metadata[vendor_id]': 'ven_1',
    });
    expect(sent.idempotencyKey).toBe('customer:usr_9:ven_1');
  });
});

describe('StripePayments.parseWebhook', () => {
  const CREATED = 1_760_000_000;
  const PERIOD_END = 1_767_000_000;

  function signed(
    type: string,
    object: Record<string, unknown>,
    opts: { secret?: string; timestamp?: number; id?: string } = {},
  ) {
    const payload = JSON.stringify({
      id: opts.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: CREATED,
      livemode: false,
      type,
      data: { object },
    });
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? WEBHOOK_SECRET,
      ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
    });
    return { body: Buffer.from(payload), headers: { 'stripe-signature': header } };
  }

  const parse = (w: ReturnType<typeof signed>) => payments.parseWebhook(w.body, w.headers);

  const paidSession = {
    id: 'cs_test_paid',
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    status: 'complete',
    client_reference_id: 'pur_1',
    metadata: { purchase_id: 'pur_1' },
    payment_intent: 'pi_1',
    invoice: null,
    subscription: null,
    customer: 'cus_1',
    amount_total: 2000,
    currency: 'eur',
  };

  it('maps a paid checkout to checkout.completed', async () => {
    const w = signed('checkout.session.completed', paidSession, { id: 'evt_paid' });
    expect(await parse(w)).toEqual({
      id: 'evt_paid',
      type: 'checkout.completed',
      purchaseId: 'pur_1',
      occurredAt: new Date(CREATED * 1000),
      paymentRef: 'pi_1',
      amount: 2000,
      currency: 'eur',
      subscriptionId: null,
      customerId: 'cus_1',
      periodEnd: null,
      cancelAtPeriodEnd: null,
    });
  });

  it('maps a trial subscription checkout (no payment required), asking Stripe for the trial end', async () => {
    // The session names its subscription, not the period: the adapter retrieves it.
    const { sessionId } = await payments.createCheckout(
      checkoutRequest({
        mode: 'subscription',
        item: { name: 'Signals', amount: 3500, currency: 'eur', interval: 'month' },
        trialDays: 14,
      }),
    );
    const subscription = (await fake.sandbox.completeCheckoutSession(sessionId))!.subscription;
    expect(subscription).toMatch(/^sub_/);
    const event = await parse(
      signed('checkout.session.completed', {
        ...paidSession,
        mode: 'subscription',
        payment_status: 'no_payment_required',
        payment_intent: null,
        invoice: 'in_trial',
        subscription,
        amount_total: 0,
      }),
    );
    expect(event).toMatchObject({
      type: 'checkout.completed',
      paymentRef: 'in_trial',
      amount: 0,
      subscriptionId: subscription,
      customerId: 'cus_1',
    });
    const trialEnd = Date.now() + 14 * 86_400_000;
    expect(Math.abs(event!.periodEnd!.getTime() - trialEnd)).toBeLessThan(60_000);

    // A subscription Stripe does not know: the delivery fails, so Stripe sends it again.
    await expect(
      parse(
        signed('checkout.session.completed', {
          ...paidSession,
          mode: 'subscription',
          subscription: 'sub_unknown',
          payment_intent: null,
        }),
      ),
    ).rejects.toThrow(/No such subscription/);
  });

  it('falls back to client_reference_id and then to the session id', async () => {
    const event = await parse(
      signed('checkout.session.completed', {
        ...paidSession,
        metadata: {},
        client_reference_id: 'pur_ref',
        payment_intent: null,
        invoice: null,
      }),
    );
    expect(event).toMatchObject({ purchaseId: 'pur_ref', paymentRef: 'cs_test_paid' });
  });

  it('waits for async payments: unpaid completion is ignored, async success completes', async () => {
    const unpaid = { ...paidSession, payment_status: 'unpaid' };
    expect(await parse(signed('checkout.session.completed', unpaid))).toBeNull();
    expect(
      await parse(signed('checkout.session.async_payment_succeeded', paidSession)),
    ).toMatchObject({
      type: 'checkout.completed',
      purchaseId: 'pur_1',
      paymentRef: 'pi_1',
    });
  });

  it('maps expiry and async failure', async () => {
    const open = { ...paidSession, payment_status: 'unpaid', status: 'expired' };
    expect(await parse(signed('checkout.session.expired', open))).toMatchObject({
      type: 'checkout.expired',
      purchaseId: 'pur_1',
    });
    expect(await parse(signed('checkout.session.async_payment_failed', open))).toMatchObject({
      type: 'payment.failed',
      purchaseId: 'pur_1',
      paymentRef: 'pi_1',
    });
  });

  it('returns null for an event without a purchase id', async () => {
    const foreign = { ...paidSession, metadata: {}, client_reference_id: null };
    expect(await parse(signed('checkout.session.completed', foreign))).toBeNull();
  });

  const cycleInvoice = {
    id: 'in_cycle',
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    amount_paid: 4500,
    amount_due: 4500,
    currency: 'usd',
    customer: 'cus_1',
    lines: { object: 'list', data: [{ id: 'il_1', period: { start: CREATED, end: PERIOD_END } }] },
  };

  it('maps a renewal invoice (subscription details under parent)', async () => {
    const event = await parse(
      signed('invoice.paid', {
        ...cycleInvoice,
        parent: {
          type: 'subscription_details',
          subscription_details: { metadata: { purchase_id: 'pur_sub' }, subscription: 'sub_1' },
        },
      }),
    );
    expect(event).toMatchObject({
      type: 'subscription.renewed',
      purchaseId: 'pur_sub',
      paymentRef: 'in_cycle',
      amount: 4500,
      currency: 'usd',
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      periodEnd: new Date(PERIOD_END * 1000),
    });
  });

  it('maps a renewal invoice in the older shape', async () => {
    const event = await parse(
      signed('invoice.paid', {
        ...cycleInvoice,
        subscription: 'sub_old',
        subscription_details: { metadata: { purchase_id: 'pur_old' } },
      }),
    );
    expect(event).toMatchObject({
      type: 'subscription.renewed',
      purchaseId: 'pur_old',
      subscriptionId: 'sub_old',
      periodEnd: new Date(PERIOD_END * 1000),
    });
  });

  it('ignores the first subscription invoice (checkout covers it)', async () => {
    const first = {
      ...cycleInvoice,
      billing_reason: 'subscription_create',
      parent: { subscription_details: { metadata: { purchase_id: 'pur_sub' } } },
    };
    expect(await parse(signed('invoice.paid', first))).toBeNull();
  });

  it('maps a failed invoice payment', async () => {
    const event = await parse(
      signed('invoice.payment_failed', {
        ...cycleInvoice,
        amount_paid: 0,
        parent: { subscription_details: { metadata: { purchase_id: 'pur_sub' } } },
      }),
    );
    expect(event).toMatchObject({
      type: 'payment.failed',
      purchaseId: 'pur_sub',
      paymentRef: 'in_cycle',
      amount: 4500,
    });
  });

  const subscription = {
    id: 'sub_1',
    object: 'subscription',
    customer: 'cus_1',
    currency: 'usd',
    metadata: { purchase_id: 'pur_sub' },
    cancel_at_period_end: true,
    cancel_at: null,
    items: { object: 'list', data: [{ id: 'si_1', current_period_end: PERIOD_END }] },
  };

  it('maps a cancellation at period end (period end on the item)', async () => {
    expect(await parse(signed('customer.subscription.updated', subscription))).toMatchObject({
      type: 'subscription.updated',
      purchaseId: 'pur_sub',
      subscriptionId: 'sub_1',
      cancelAtPeriodEnd: true,
      periodEnd: new Date(PERIOD_END * 1000),
    });
  });

  it('maps a resumed subscription (period end on the subscription, older shape)', async () => {
    const resumed = {
      ...subscription,
      cancel_at_period_end: false,
      current_period_end: PERIOD_END + 60,
      items: { object: 'list', data: [{ id: 'si_1' }] },
    };
    expect(await parse(signed('customer.subscription.updated', resumed))).toMatchObject({
      type: 'subscription.updated',
      cancelAtPeriodEnd: false,
      periodEnd: new Date((PERIOD_END + 60) * 1000),
    });
  });

  it('treats cancel_at as a scheduled cancellation ending then', async () => {
    const scheduled = { ...subscription, cancel_at_period_end: false, cancel_at: PERIOD_END - 10 };
    expect(await parse(signed('customer.subscription.updated', scheduled))).toMatchObject({
      cancelAtPeriodEnd: true,
      periodEnd: new Date((PERIOD_END - 10) * 1000),
    });
  });

  it('maps a deleted subscription to subscription.ended', async () => {
    const ended = { ...subscription, status: 'canceled', ended_at: CREATED };
    expect(await parse(signed('customer.subscription.deleted', ended))).toMatchObject({
      type: 'subscription.ended',
      purchaseId: 'pur_sub',
      subscriptionId: 'sub_1',
      periodEnd: new Date(CREATED * 1000),
    });
  });

  it('maps a refund from the charge metadata', async () => {
    const charge = {
      id: 'ch_1',
      object: 'charge',
      amount: 2000,
      amount_refunded: 800,
      currency: 'eur',
      payment_intent: 'pi_1',
      customer: 'cus_1',
      metadata: { purchase_id: 'pur_1' },
    };
    expect(await parse(signed('charge.refunded', charge))).toMatchObject({
      type: 'refund',
      purchaseId: 'pur_1',
      paymentRef: 'pi_1',
      amount: 800,
      currency: 'eur',
    });
  });

  it('maps a dispute by purchase id, else by payment intent, else not at all', async () => {
    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      amount: 2000,
      currency: 'eur',
      charge: 'ch_1',
      payment_intent: 'pi_1',
      metadata: { purchase_id: 'pur_1' },
    };
    expect(await parse(signed('charge.dispute.created', dispute))).toMatchObject({
      type: 'dispute',
      purchaseId: 'pur_1',
      paymentRef: 'pi_1',
      amount: 2000,
    });
    expect(
      await parse(signed('charge.dispute.created', { ...dispute, metadata: {} })),
    ).toMatchObject({
      type: 'dispute',
      purchaseId: null,
      paymentRef: 'pi_1',
    });
    expect(
      await parse(
        signed('charge.dispute.created', { ...dispute, metadata: {}, payment_intent: null }),
      ),
    ).toBeNull();
  });

  it('returns null for event types it does not handle', async () => {
    const w = signed('customer.created', { id: 'cus_1', object: 'customer', metadata: {} });
    expect(await parse(w)).toBeNull();
    expect(
      await parse(
        signed('payment_intent.succeeded', { id: 'pi_1', metadata: { purchase_id: 'p' } }),
      ),
    ).toBeNull();
  });

  describe('signature checks', () => {
    const expectRejected = async (fn: () => Promise<unknown>) => {
      let caught: unknown;
      try {
        await fn();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(WebhookSignatureError);
      // No internals: neither the secret nor the received header is echoed back.
      expect((caught as Error).message).not.toMatch(/whsec|t=\d+/);
    };

    it('rejects a tampered body', async () => {
      const w = signed('checkout.session.completed', paidSession);
      const tampered = Buffer.from(
        w.body.toString().replace('"amount_total":2000', '"amount_total":1'),
      );
      expect(tampered.equals(w.body)).toBe(false);
      await expectRejected(() => payments.parseWebhook(tampered, w.headers));
    });

    it('rejects a signature made with another secret', async () => {
      const w = signed('checkout.session.completed', paidSession, { secret: 'whsec_other' });
      await expectRejected(() => parse(w));
    });

    it('rejects a stale timestamp but accepts a recent one', async () => {
      const now = Math.floor(Date.now() / 1000);
      const stale = signed('checkout.session.completed', paidSession, { timestamp: now - 600 });
      await expectRejected(() => parse(stale));
      const recent = signed('checkout.session.completed', paidSession, { timestamp: now - 240 });
      expect(await parse(recent)).toMatchObject({ type: 'checkout.completed' });
    });

    it('rejects a missing or malformed signature header', async () => {
      const w = signed('checkout.session.completed', paidSession);
      await expectRejected(() => payments.parseWebhook(w.body, {}));
      await expectRejected(() => payments.parseWebhook(w.body, { 'stripe-signature': 'garbage' }));
    });
  });
});
