import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  createBuyer,
  ledgerOf,
  purchaseOfSession,
  sandboxPost,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { freePort } from '../../../test/http.ts';

/*
 * The one adapter: the app runs PAYMENTS_PROVIDER=stripe against its own Stripe sandbox (the SDK over
 * HTTP to /v1 on the app's port), and the sandbox's hosted pages and dashboard drive the purchase
 * through Stripe webhooks read by the real adapter.
 */

// The app's Stripe adapter calls the sandbox on the port the app listens on (`/v1`).
const t = useTestApp(async () =>
  startTestApp({ PAYMENTS_PROVIDER: 'stripe', PORT: String(await freePort()) }),
);
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;

beforeAll(async () => {
  await t.app.listen({ port: t.config.PORT, host: '127.0.0.1' });
  vendor = await createVendor(t);
  product = await createProduct(t, vendor.id, { title: 'Sandbox Tool', amount: 4_000 });
});

describe('checkout on the Stripe sandbox', () => {
  it('runs the Stripe adapter against /v1 on the same port', () => {
    expect(t.config.STRIPE_API_URL).toBe(`http://127.0.0.1:${t.config.PORT}`);
    expect(t.deps.payments.name).toBe('stripe');
  });

  it('pays on the hosted page, refunds half from the dashboard, all through Stripe events', async () => {
    const buyer = await createBuyer(t);
    const sessionId = await startProductCheckout(t, buyer, vendor.vendorUrl, {
      priceId: product.priceId,
    });
    expect(sessionId).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);

    const page = await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${sessionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pay Sandbox Tool');
    expect(page.body).toContain(`Paying as ${buyer.email}`);
    expect(page.body).toMatch(/Due today.*\$40\.00/s);

    const paid = await sandboxPost(t, `/sandbox/checkout/${sessionId}/pay`);
    expect(paid.statusCode).toBe(303);
    const purchase = await purchaseOfSession(t, buyer, sessionId);
    expect(purchase).toMatchObject({ status: 'paid' });
    const ledger = await ledgerOf(t, purchase.id);
    expect(ledger.length).toBeGreaterThan(0);

    // The events the app took came signed from the sandbox's outbox, every one delivered.
    const events = await t.database.db.execute<{ type: string; delivered: boolean }>(
      sql`select type, delivered_at is not null as delivered from sandbox_stripe_events order by seq`,
    );
    expect(events.rows.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'customer.created',
        'charge.succeeded',
        'checkout.session.completed',
      ]),
    );
    expect(events.rows.every((e) => e.delivered)).toBe(true);

    const half = await sandboxPost(t, `/sandbox/payments/${sessionId}/refund_half`);
    expect(half.statusCode).toBe(303);
    await t.jobs.settle();
    const refunds = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ledger_entries where purchase_id = ${purchase.id}
        and entry_type like 'refund%'`,
    );
    expect(refunds.rows[0]!.n).toBeGreaterThan(0);
  });

  it('cancels on the hosted page: the checkout expires and nothing is paid', async () => {
    const buyer = await createBuyer(t);
    const sessionId = await startProductCheckout(t, buyer, vendor.vendorUrl, {
      priceId: product.priceId,
    });
    const res = await sandboxPost(t, `/sandbox/checkout/${sessionId}/cancel`);
    expect(res.statusCode).toBe(303);
    const purchase = await purchaseOfSession(t, buyer, sessionId);
    expect(purchase.status).not.toBe('paid');
    const expired = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_events
        where type = 'checkout.session.expired' and delivered_at is not null`,
    );
    expect(expired.rows[0]!.n).toBe(1);
  });
});
