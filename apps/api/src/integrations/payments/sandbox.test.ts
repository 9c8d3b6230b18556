import { ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createBuyer, sandboxPost } from '../../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import type { SandboxTransport } from './sandbox.ts';

let t: TestApp;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
/** The app's own in-process transport, wrapped so a test can make the endpoint unreachable. */
let reachable = true;
let delivered: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  vendor = await createVendor(t, { vendorUrl: 'sandbox-vendor' });
  product = await createProduct(t, vendor.id, {
    title: 'Sandbox Tool',
    amount: 3_000,
    extraPrices: [900],
  });
  const sandbox = t.deps.sandbox!;
  const inProcess = (sandbox as unknown as { transport: SandboxTransport }).transport;
  sandbox.setTransport(async (body, signature) => {
    if (!reachable) throw new Error('connect ECONNREFUSED');
    const status = await inProcess(body, signature);
    if (status === 200) delivered.push(JSON.parse(body).type);
    return status;
  });
});
afterAll(async () => {
  await t?.close();
});

async function checkout(scheme?: string) {
  const buyer = await createBuyer(t);
  const res = await t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl: vendor.vendorUrl },
    body: { priceId: product.priceId, ...(scheme ? { scheme } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { buyer, sessionId: res.json().sessionId as string };
}

async function statusOf(buyer: { token: string }, sessionId: string) {
  const res = await t.call(ordersRoutes.purchaseStatus, {
    token: buyer.token,
    params: { id: sessionId },
  });
  return res.json().purchase.status as string;
}

const eventsOf = async (sessionId: string) =>
  (
    await t.database.db
      .execute(sql`select type, attempts, delivered_at, last_error from sandbox_events
      where session_id = ${sessionId} order by created_at`)
  ).rows as Array<{
    type: string;
    attempts: number;
    delivered_at: Date | null;
    last_error: string | null;
  }>;

/** Time passing: every undelivered event becomes due. */
const makeDue = () =>
  t.database.db.execute(
    sql`update sandbox_events set next_attempt_at = now() where delivered_at is null`,
  );

describe('the sandbox delivers its events from an outbox', () => {
  it('keeps a paid session’s event when the endpoint is unreachable and delivers it later', async () => {
    const { buyer, sessionId } = await checkout();
    reachable = false;
    try {
      const paid = await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
      // The buyer is sent back to the status page either way; the order shows as pending there.
      expect(paid.statusCode).toBe(303);
    } finally {
      reachable = true;
    }
    expect(await statusOf(buyer, sessionId)).toBe('pending');
    const [pending] = await eventsOf(sessionId);
    expect(pending).toMatchObject({
      type: 'checkout.completed',
      attempts: 1,
      delivered_at: null,
      last_error: 'connect ECONNREFUSED',
    });

    // The sweep leaves it alone until its backoff has passed.
    expect(await t.deps.sandbox!.sendDue()).toBe(0);
    await makeDue();
    expect(await t.deps.sandbox!.sendDue()).toBe(1);
    expect(await statusOf(buyer, sessionId)).toBe('paid');
    const [done] = await eventsOf(sessionId);
    expect(done).toMatchObject({ attempts: 2, last_error: null });
    expect(done!.delivered_at).not.toBeNull();
    // Delivered once: a later sweep sends nothing more.
    await makeDue();
    expect(await t.deps.sandbox!.sendDue()).toBe(0);
  });

  it('retries an event the endpoint refused until it is accepted', async () => {
    const { buyer, sessionId } = await checkout('month');
    const session = (await t.deps.sandbox!.session(sessionId))!;
    // A cancellation recorded before the payment: the endpoint answers 409 until the order is paid.
    await t.database.db.execute(
      sql`update sandbox_sessions set subscription_id = ${`sub_sbx_${sessionId.slice(7)}`},
        subscription_status = 'active' where id = ${session.id}`,
    );
    await t.deps.sandbox!.emit(
      session.id,
      { subscriptionStatus: 'cancelling' },
      'subscription.updated',
      {
        cancelAtPeriodEnd: true,
      },
    );
    expect((await eventsOf(sessionId))[0]).toMatchObject({
      type: 'subscription.updated',
      delivered_at: null,
    });
    await t.database.db.execute(
      sql`update sandbox_sessions set subscription_id = null, subscription_status = null where id = ${session.id}`,
    );
    await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    expect(await statusOf(buyer, sessionId)).toBe('paid');
    await makeDue();
    await t.deps.sandbox!.sendDue();
    const events = await eventsOf(sessionId);
    expect(events.map((e) => [e.type, Boolean(e.delivered_at)])).toEqual([
      ['subscription.updated', true],
      ['checkout.completed', true],
    ]);
    expect(events[0]!.attempts).toBe(2);
  });

  it('records one payment however often Pay is pressed', async () => {
    const { sessionId } = await checkout();
    await Promise.all([1, 2, 3].map(() => sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`)));
    expect((await eventsOf(sessionId)).map((e) => e.type)).toEqual(['checkout.completed']);
  });

  it('lets a person deliver an event again from the dashboard', async () => {
    const { buyer, sessionId } = await checkout();
    reachable = false;
    try {
      await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    } finally {
      reachable = true;
    }
    const page = await t.app.inject({ method: 'GET', url: '/sandbox/payments' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('not delivered (1 attempt: connect ECONNREFUSED)');
    const id = /action="\/sandbox\/events\/([^/]+)\/retry"/.exec(page.body)?.[1];
    expect(id).toBeTruthy();
    const again = await sandboxPost(t, `/sandbox/events/${id}/retry`);
    expect(again.statusCode).toBe(303);
    expect(await statusOf(buyer, sessionId)).toBe('paid');
  });
});

describe('sandbox pages', () => {
  it.each([
    ['POST', '/sandbox/payments/cs_x/refund%20all'],
    ['POST', '/sandbox/payments/cs_x/explode'],
    ['GET', '/sandbox/checkout/cs_%00x'],
    ['GET', '/sandbox/checkout/cs%20x'],
    ['GET', '/sandbox/portal/a%00b'],
    ['POST', '/sandbox/portal/token/cs_x/delete'],
    ['POST', '/sandbox/events/evt%0Ax/retry'],
  ])('answer %s %s with a 400 in the contract shape', async (method, url) => {
    const res = await t.app.inject({
      method: method as 'GET' | 'POST',
      url,
      payload: method === 'POST' ? '' : undefined,
      headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
  });

  it('answers 404 for an unknown session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_sbx_nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('serves the dashboard to callers on this machine only', async () => {
    for (const url of ['/sandbox/payments']) {
      const remote = await t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.10' });
      expect(remote.statusCode).toBe(404);
      expect(remote.body).not.toContain('Sandbox payments');
      const local = await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
    }
    const action = await t.app.inject({
      method: 'POST',
      url: '/sandbox/payments/cs_x/refund',
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: '192.0.2.10',
    });
    expect(action.statusCode).toBe(404);
  });
});

describe('the sandbox outside local', () => {
  it('never serves the dashboard in the sandbox environment', async () => {
    const other = await startTestApp({ APP_ENV: 'sandbox' });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/sandbox/payments' });
      expect(res.statusCode).toBe(404);
      // The hosted checkout pages a buyer needs are still there.
      const missing = await other.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_sbx_x' });
      expect(missing.json()).toMatchObject({
        code: 'not_found',
        error: expect.stringContaining('checkout session'),
      });
    } finally {
      await other.close();
    }
  });
});

it('delivered the events the tests above made', () => {
  expect(delivered).toContain('checkout.completed');
  delivered = [];
});
