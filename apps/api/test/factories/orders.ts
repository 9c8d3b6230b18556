import { ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { PaymentEvent } from '../../src/integrations/payments/port.ts';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxPayments,
} from '../../src/integrations/payments/sandbox.ts';
import { newId } from '../../src/lib.ts';
import { PAYMENTS_WEBHOOK_PATH as WEBHOOK_PATH } from '../../src/integrations/payments/port.ts';
import type { TestApp } from '../harness.ts';
import { createUser } from './users.ts';

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
  const token = await t.deps.tokens.sign({ sub: user.id, email: user.email, roles: ['buyer'] });
  return { ...user, token };
}

/** Clicks the sandbox's hosted-page buttons, as a browser would. */
export const sandboxPost = (t: TestApp, path: string) =>
  t.app.inject({
    method: 'POST',
    url: path,
    payload: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Delivers a signed sandbox webhook event. */
export function deliverEvent(
  t: TestApp,
  event: Partial<PaymentEvent> & Pick<PaymentEvent, 'id' | 'type' | 'purchaseId'>,
  options: { secret?: string; timestamp?: number; tamper?: (body: string) => string } = {},
) {
  const full: PaymentEvent = {
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
  const body = JSON.stringify(full);
  // Signing touches no database: a second sandbox with another secret is a wrong-secret sender.
  const signer = options.secret
    ? new SandboxPayments(t.database.db, options.secret)
    : t.deps.sandbox!;
  const signature = signer.sign(body, options.timestamp);
  return t.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    payload: options.tamper ? options.tamper(body) : body,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
  });
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
  body: { priceId: string; scheme?: string; coupon?: string },
): Promise<string> {
  const res = await t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl },
    body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sessionId as string;
}

/**
 * A new buyer who bought one product plan and paid on the sandbox's hosted page (the signed webhook
 * applied): the buyer with the purchase's id.
 */
export async function buyPaidProduct(t: TestApp, vendorUrl: string, priceId: string) {
  const buyer = await createBuyer(t);
  const sessionId = await startProductCheckout(t, buyer, vendorUrl, { priceId });
  expect((await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`)).statusCode).toBe(303);
  const purchase = await t.database.db.execute<{ id: string }>(
    sql`select id from purchases where session_id = ${sessionId}`,
  );
  return { ...buyer, purchaseId: purchase.rows[0]!.id };
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
