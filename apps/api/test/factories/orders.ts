import { ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import Stripe from 'stripe';
import type { DomainEvent } from '../../src/events/types.ts';
import type { PaymentEvent } from '../../src/integrations/payments/port.ts';
import { newId } from '../../src/lib.ts';
import { PAYMENTS_WEBHOOK_PATH as WEBHOOK_PATH } from '../../src/integrations/payments/port.ts';
import type { TestApp } from '../harness.ts';
import { createUser, userToken } from './users.ts';

let seq = 0;

export async function createCoupon(
  t: TestApp,
  vendorId: string,
  overrides: Partial<{
    code: string;
    type: 'percent' | 'amount';
    percentOff: number;
    amountOff: number;
    productId: string;
    duration: 'once' | 'forever';
    expiresAt: Date;
    maxRedemptions: number;
    redemptions: number;
  }> = {},
) {
  const id = newId('cpn');
  const code = overrides.code ?? `CODE${++seq}`;
  const type = overrides.type ?? 'percent';
  await t.database.db
    .execute(sql`insert into coupons (id, vendor_id, code, type, percent_off, amount_off,
      currency, product_id, duration, expires_at, max_redemptions, redemptions)
    values (${id}, ${vendorId}, ${code}, ${type}, ${type === 'percent' ? (overrides.percentOff ?? 10) : null},
      ${type === 'amount' ? (overrides.amountOff ?? 500) : null}, ${type === 'amount' ? 'usd' : null},
      ${overrides.productId ?? null}, ${overrides.duration ?? 'once'}, ${overrides.expiresAt ?? null},
      ${overrides.maxRedemptions ?? null}, ${overrides.redemptions ?? 0})`);
  return { id, code };
}

export async function createReferral(t: TestApp, vendorId: string, userId: string, bps = 2000) {
  const refId = `ref${++seq}${Math.random().toString(36).slice(2, 8)}`;
  await t.database.db
    .execute(sql`insert into referral_links (ref_id, vendor_id, user_id, commission_bps)
    values (${refId}, ${vendorId}, ${userId}, ${bps})`);
  return refId;
}

/** A signed-in buyer: a user and an access token minted by the app's own token service. */
export async function createBuyer(t: TestApp) {
  const user = await createUser(t);
  const token = await userToken(t, user);
  return { ...user, token };
}

export type Buyer = Awaited<ReturnType<typeof createBuyer>>;

/** The platform fee the order tests reckon with: 5 % and 0.30 a sale. */
export const TEST_FEES = { PLATFORM_FEE_BPS: '500', PLATFORM_FEE_FIXED: '30' };

/** Clicks the sandbox's hosted-page buttons, as a browser would. */
export const sandboxPost = (t: TestApp, path: string) =>
  t.app.inject({
    method: 'POST',
    url: path,
    payload: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/**
 * Clicks a button of the sandbox dashboard's payment behind a purchase (`refund`, `refund_half`,
 * `renew`, `end`, `dispute`), as the vendor testing a store would.
 */
export async function sandboxPaymentAction(t: TestApp, purchaseId: string, action: string) {
  const session = await t.database.db.execute<{ id: string }>(
    sql`select session_id as id from purchases where id = ${purchaseId}`,
  );
  return sandboxPost(t, `/sandbox/payments/${session.rows[0]!.id}/${action}`);
}

/**
 * Delivers, signed with the app's Stripe endpoint secret (or `secret`), the Stripe event that the
 * adapter reads as `event`: what Stripe sends, for tests of the webhook's handling (forged, repeated,
 * late or out-of-order events) that no click on the sandbox makes.
 */
export function deliverEvent(
  t: TestApp,
  event: Partial<PaymentEvent> & Pick<PaymentEvent, 'id' | 'type' | 'purchaseId'>,
  options: { secret?: string; timestamp?: number; tamper?: (body: string) => string } = {},
) {
  const e: PaymentEvent = {
    occurredAt: new Date(),
    paymentRef: `pi_${event.id}`,
    amount: null,
    currency: 'usd',
    subscriptionId: null,
    customerId: null,
    periodEnd: null,
    cancelAtPeriodEnd: null,
    ...event,
  };
  const [type, object] = stripeObjectOf(e);
  const body = JSON.stringify({
    id: e.id,
    object: 'event',
    api_version: '2025-03-31.basil',
    created: Math.floor(e.occurredAt.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? t.config.STRIPE_WEBHOOK_SECRET!,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return t.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    payload: options.tamper ? options.tamper(body) : body,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The Stripe event type and object behind a payment event (see `mapEvent` in stripe.ts). */
function stripeObjectOf(e: PaymentEvent): [string, Record<string, unknown>] {
  const metadata = e.purchaseId ? { purchase_id: e.purchaseId } : {};
  const session = {
    id: `cs_test_${e.id}`,
    object: 'checkout.session',
    metadata,
    client_reference_id: e.purchaseId,
    customer: e.customerId,
    amount_total: e.amount,
    currency: e.currency,
  };
  const period = { items: { data: [{ current_period_end: seconds(e.periodEnd) }] } };
  switch (e.type) {
    case 'checkout.completed':
      return [
        'checkout.session.completed',
        {
          ...session,
          status: 'complete',
          payment_status: e.amount === 0 ? 'no_payment_required' : 'paid',
          payment_intent: e.subscriptionId ? null : e.paymentRef,
          subscription: e.subscriptionId,
        },
      ];
    case 'checkout.expired':
      return ['checkout.session.expired', { ...session, status: 'expired' }];
    case 'payment.failed':
      return e.subscriptionId
        ? [
            'invoice.payment_failed',
            {
              id: e.paymentRef,
              object: 'invoice',
              amount_due: e.amount,
              currency: e.currency,
              customer: e.customerId,
              parent: { subscription_details: { metadata, subscription: e.subscriptionId } },
            },
          ]
        : [
            'checkout.session.async_payment_failed',
            { ...session, payment_status: 'unpaid', payment_intent: e.paymentRef },
          ];
    case 'subscription.renewed':
      return [
        'invoice.paid',
        {
          id: e.paymentRef,
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          amount_paid: e.amount,
          currency: e.currency,
          customer: e.customerId,
          parent: { subscription_details: { metadata, subscription: e.subscriptionId } },
          lines: { data: [{ period: { end: seconds(e.periodEnd) }, metadata }] },
        },
      ];
    case 'subscription.updated':
    case 'subscription.ended':
      return [
        e.type === 'subscription.ended'
          ? 'customer.subscription.deleted'
          : 'customer.subscription.updated',
        {
          id: e.subscriptionId ?? `sub_${e.id}`,
          object: 'subscription',
          metadata,
          customer: e.customerId,
          currency: e.currency,
          cancel_at_period_end: e.cancelAtPeriodEnd === true,
          cancel_at: null,
          ended_at: e.type === 'subscription.ended' ? seconds(e.periodEnd) : null,
          ...period,
        },
      ];
    case 'refund':
      return [
        'charge.refunded',
        {
          id: `ch_${e.id}`,
          object: 'charge',
          metadata,
          amount_refunded: e.amount,
          currency: e.currency,
          payment_intent: e.paymentRef,
          customer: e.customerId,
        },
      ];
    case 'dispute':
      return [
        'charge.dispute.created',
        {
          id: `dp_${e.id}`,
          object: 'dispute',
          metadata,
          amount: e.amount,
          currency: e.currency,
          payment_intent: e.paymentRef,
        },
      ];
  }
}

/** A purchase's domain events as recorded, oldest first: to hand its subscribers again. */
export async function purchaseEvents(t: TestApp, purchaseId: string): Promise<DomainEvent[]> {
  const { rows } = await t.database.db.execute<{
    id: string;
    type: DomainEvent['type'];
    stream: string;
    version: number;
    data: unknown;
  }>(sql`select id, type, stream, version, data from domain_events
    where stream = ${purchaseId} order by version`);
  return rows.map((e) => ({ ...e, occurredAt: new Date().toISOString() }) as DomainEvent);
}

export async function ledgerOf(t: TestApp, purchaseId: string) {
  const res = await t.database.db.execute(sql`select entry_type, account_type, account_id, amount
    from ledger_entries where purchase_id = ${purchaseId} order by entry_type, account_type`);
  return res.rows as Array<{
    entry_type: string;
    account_type: string;
    account_id: string;
    amount: number;
  }>;
}

/** Starts checkout of a product plan (or, with `scheme`, a sibling plan); the session id. */
export async function startProductCheckout(
  t: TestApp,
  buyer: { token: string },
  vendorUrl: string,
  body: { priceId: string; scheme?: string; coupon?: string; refId?: string },
): Promise<string> {
  const res = await t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl },
    body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sessionId as string;
}

/** Pays a checkout session on the sandbox's hosted page, as the buyer's click does. */
export async function paySession(t: TestApp, sessionId: string) {
  expect((await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`)).statusCode).toBe(303);
}

/** The id of the purchase a checkout session started. */
export async function purchaseIdOfSession(t: TestApp, sessionId: string): Promise<string> {
  const found = await t.database.db.execute<{ id: string }>(
    sql`select id from purchases where session_id = ${sessionId}`,
  );
  return found.rows[0]!.id;
}

/**
 * A new buyer who bought one product plan (or, with `scheme`, a sibling plan) and paid on the
 * sandbox's hosted page (the signed webhook applied): the buyer with the session's and purchase's ids.
 */
export async function buyPaidProduct(
  t: TestApp,
  vendorUrl: string,
  priceId: string,
  scheme?: string,
) {
  const buyer = await createBuyer(t);
  const sessionId = await startProductCheckout(t, buyer, vendorUrl, {
    priceId,
    ...(scheme ? { scheme } : {}),
  });
  await paySession(t, sessionId);
  return { ...buyer, sessionId, purchaseId: await purchaseIdOfSession(t, sessionId) };
}

/** The buyer's purchase behind a checkout session, as the return page reads it. */
export async function purchaseOfSession(t: TestApp, buyer: { token: string }, sessionId: string) {
  const res = await t.call(ordersRoutes.purchaseStatus, {
    token: buyer.token,
    params: { id: sessionId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().purchase;
}

/**
 * Fills in the payment sandbox's Connect onboarding page behind `url` (what the connect-account
 * route answered), as a person would: `active` submits, `pending` submits and leaves verification
 * pending. Answers where the page sent the browser back to.
 */
export async function completeSandboxOnboarding(
  t: TestApp,
  url: string,
  outcome: 'active' | 'pending' = 'active',
): Promise<string> {
  const path = new URL(url).pathname;
  const form = new URLSearchParams({
    businessName: 'Test Trading Ltd',
    country: 'GB',
    account: 'GB29NWBK60161331926819',
    tos: 'on',
    outcome,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: path,
    payload: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode, res.body).toBe(303);
  return res.headers.location as string;
}

/**
 * What Stripe (the app's Stripe sandbox) holds for a purchase: its checkout session, its
 * subscription and that subscription's status, and the amounts refunded (oldest first), as the
 * dashboard would show them.
 */
export async function atStripe(t: TestApp, purchaseId: string) {
  const { rows } = await t.database.db.execute<{
    session_id: string;
    subscription_id: string | null;
    subscription_status: string | null;
  }>(sql`select p.session_id, p.subscription_id, s.data->>'status' as subscription_status
    from purchases p left join sandbox_stripe_objects s
      on s.type = 'subscription' and s.id = p.subscription_id
    where p.id = ${purchaseId}`);
  const refunds = await t.database.db.execute<{ amount: number }>(
    sql`select (data->>'amount')::int as amount from sandbox_stripe_objects
      where type = 'refund' and data->'metadata'->>'purchase_id' = ${purchaseId} order by seq`,
  );
  const row = rows[0];
  if (!row) throw new Error(`no purchase ${purchaseId}`);
  return {
    sessionId: row.session_id,
    subscriptionId: row.subscription_id,
    subscriptionStatus: row.subscription_status,
    refunds: refunds.rows.map((r) => r.amount),
  };
}
