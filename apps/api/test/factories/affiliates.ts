import { affiliatesRoutes, ordersRoutes } from '@tradeshelf/contract';
import { startPayoutOnboarding } from './two-factor.ts';
import { expect } from 'vitest';
import type { TestApp } from '../harness.ts';
import {
  completeSandboxOnboarding,
  createBuyer,
  paySession,
  purchaseIdOfSession,
  sandboxPost,
} from './orders.ts';

/** A signed-in vendor (as `createVendor` makes one) with an access token. */
export async function vendorToken(t: TestApp, vendor: { userId: string }) {
  return t.deps.tokens.sign({
    sub: vendor.userId,
    email: 'v@example.com',
    roles: ['buyer', 'vendor'],
  });
}

/** Sets a vendor's programme through the vendor API. */
export async function openProgramme(
  t: TestApp,
  token: string,
  terms: Partial<{ open: boolean; commissionBps: number; cookieDays: number }> = {},
) {
  const res = await t.call(affiliatesRoutes.updateVendorProgramme, {
    token,
    body: { open: true, commissionBps: 2000, cookieDays: 30, ...terms },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().programme;
}

/** The affiliate's referral for a vendor (generated through the API). */
export async function generateRef(t: TestApp, token: string, vendorId: string) {
  const res = await t.call(affiliatesRoutes.generateRef, { token, body: { vendorId } });
  expect(res.statusCode, res.body).toBe(200);
  // docs/product.md#calls: the client reads `data`; `referral` carries the same for older clients.
  expect(res.json().data).toEqual(res.json().referral);
  return res.json().data as { refId: string; shareUrl: string; vendorId: string };
}

/**
 * A new buyer who arrived with `refId` and paid on the sandbox's hosted page: the purchase and the
 * checkout session (for the sandbox dashboard's refund buttons).
 */
export async function buyReferred(t: TestApp, vendorUrl: string, priceId: string, refId: string) {
  const buyer = await createBuyer(t);
  const res = await t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl },
    body: { priceId, refId },
  });
  expect(res.statusCode, res.body).toBe(201);
  const sessionId = res.json().sessionId as string;
  await paySession(t, sessionId);
  return { buyer, sessionId, purchaseId: await purchaseIdOfSession(t, sessionId) };
}

/** Connects the affiliate's payout account at the sandbox (its onboarding page filled in). */
export async function connectPayouts(t: TestApp, token: string) {
  const started = await startPayoutOnboarding(t, token, 'affiliate');
  expect(started.statusCode, started.body).toBe(200);
  await completeSandboxOnboarding(t, started.json().url as string);
  const done = await t.call(ordersRoutes.connectAccountCallback, {
    token,
    query: { as: 'affiliate' },
  });
  expect(done.statusCode, done.body).toBe(200);
  return done.json() as { message: string; payoutsEnabled: boolean };
}

/** Moves the hold clock past the hold (the local sandbox page's button), or back to now. */
export async function moveHoldClock(t: TestApp, to: 'advance' | 'reset') {
  const res = await sandboxPost(t, `/sandbox/affiliates/clock/${to}`);
  expect(res.statusCode, res.body).toBe(303);
}

export async function overview(t: TestApp, token: string) {
  const res = await t.call(affiliatesRoutes.affiliateReferrals, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
