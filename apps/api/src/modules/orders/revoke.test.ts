import {
  catalogRoutes,
  licencesRoutes,
  ordersMessages,
  ordersRoutes,
  REVOKE_REASON_MAX,
  type VendorSale,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, type Vendor } from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import {
  atStripe,
  buyPaidProduct,
  createBuyer,
  purchaseIdOfSession,
  sandboxPaymentAction,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';

// A vendor ends a buyer's access: through the API only, on a real database. Access, ownership and
// the licence end through their modules' subscribers; the subscription is cancelled at the sandbox.

const t = useTestApp();
let vendor: Vendor;
let app: Awaited<ReturnType<typeof createProduct>>;
let signals: Awaited<ReturnType<typeof createProduct>>;
let vendorToken: string;
let otherToken: string;

beforeAll(async () => {
  ({ vendor, vendorToken, otherToken } = await vendorAndOther(t, {
    vendor: { displayName: 'Revoke Labs' },
  }));
  app = await createProduct(t, vendor.id, { kind: 'app', title: 'Scalper Bot', amount: 4_000 });
  signals = await createProduct(t, vendor.id, {
    kind: 'indicator',
    title: 'Signal Feed',
    amount: 9_000,
    extraPrices: [1_900],
  });
});

const revoke = (id: string, reason: unknown, token = vendorToken) =>
  t.call(ordersRoutes.vendorRevokeAccess, {
    token,
    params: { id },
    body: { reason } as { reason: string },
  });

async function state(purchaseId: string) {
  const row = await t.database.db.execute<{
    revoked_at: Date | null;
    subscription_status: string | null;
    active: number;
    owned: number;
    events: number;
    mails: number;
  }>(sql`select p.revoked_at, p.subscription_status,
      (select count(*)::int from entitlements e where e.purchase_id = p.id and e.status = 'active') as active,
      (select count(*)::int from ownerships o
        where o.source = 'purchase:' || p.id and o.revoked_at is null) as owned,
      (select count(*)::int from domain_events d
        where d.stream = p.id and d.type = 'purchase.revoked') as events,
      (select count(*)::int from mail_outbox m join users u on lower(u.email) = lower(m.to)
        where u.id = p.buyer_id and m.subject like 'Access ended:%') as mails
    from purchases p where p.id = ${purchaseId}`);
  return row.rows[0]!;
}

describe('vendor sales', () => {
  it('lists only the vendor’s paid sales with the buyer, paged, and refuses non-vendors', async () => {
    const a = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const b = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    // An unpaid checkout is not a sale.
    const pending = await createBuyer(t);
    await startProductCheckout(t, pending, vendor.vendorUrl, { priceId: app.priceId });

    const seen: VendorSale[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.call(ordersRoutes.vendorSales, {
        token: vendorToken,
        query: { limit: '1', ...(cursor ? { cursor } : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { sales: VendorSale[]; nextCursor: string | null };
      expect(body.sales.length).toBeLessThanOrEqual(1);
      seen.push(...body.sales);
      cursor = body.nextCursor ?? undefined;
    } while (cursor);
    const mine = seen.filter((s) => [a.purchaseId, b.purchaseId].includes(s.id));
    expect(mine.map((s) => s.buyer.email).sort()).toEqual([a.email, b.email].sort());
    expect(seen.every((s) => s.paidAt !== null && s.buyer.email !== pending.email)).toBe(true);

    const others = await t.call(ordersRoutes.vendorSales, { token: otherToken, query: {} });
    expect(others.statusCode).toBe(200);
    expect(others.json().sales).toEqual([]);

    const buyer = await createBuyer(t);
    const refused = await t.call(ordersRoutes.vendorSales, { token: buyer.token, query: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(ordersMessages.revokeVendorsOnly);
    const bad = await t.call(ordersRoutes.vendorSales, {
      token: vendorToken,
      query: { cursor: 'not-a-cursor' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('revoking access', () => {
  it('ends the entitlements, ownership and licence, tells the buyer, and a repeat changes nothing', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const before = await state(buyer.purchaseId);
    expect(before).toMatchObject({ active: 2, owned: 1, events: 0, mails: 0 });

    const res = await revoke(buyer.purchaseId, '  Shared the licence key in a public channel.  ');
    expect(res.statusCode, res.body).toBe(200);
    const sale = res.json().sale as VendorSale;
    expect(sale.revoked?.reason).toBe('Shared the licence key in a public channel.');
    expect(sale.buyer.email).toBe(buyer.email);
    expect(sale.status).toBe('paid');
    expect(sale.entitlements.every((e) => e.status === 'ended')).toBe(true);
    expect(await state(buyer.purchaseId)).toMatchObject({
      active: 0,
      owned: 0,
      events: 1,
      mails: 1,
    });

    // The buyer's order says so, the product page no longer says "Purchased", the licence is revoked.
    const own = await t.call(ordersRoutes.purchaseDetails, {
      token: buyer.token,
      params: { id: buyer.purchaseId },
    });
    expect(own.json().purchase.revoked).toMatchObject({
      reason: 'Shared the licence key in a public channel.',
    });
    const page = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: app.id },
    });
    expect(page.json().product.purchased).toBe(false);
    const licences = await t.call(licencesRoutes.licences, { token: buyer.token });
    expect(licences.json().licences.map((l: { status: string }) => l.status)).toEqual(['revoked']);
    const mail = await t.database.db.execute<{ text: string }>(
      sql`select text from mail_outbox where lower("to") = lower(${buyer.email}) and subject like 'Access ended:%'`,
    );
    expect(mail.rows[0]!.text).toContain('Revoke Labs has ended your access to Scalper Bot.');
    expect(mail.rows[0]!.text).toContain('Their reason: Shared the licence key');

    // Again, and twice at once: the same answer, no second event or mail.
    const again = await Promise.all([
      revoke(buyer.purchaseId, 'Another reason'),
      revoke(buyer.purchaseId, 'Yet another'),
    ]);
    for (const r of again) {
      expect(r.statusCode).toBe(200);
      expect(r.json().sale.revoked.reason).toBe('Shared the licence key in a public channel.');
    }
    expect(await state(buyer.purchaseId)).toMatchObject({ events: 1, mails: 1 });
  });

  it('revokes once when two requests race', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => revoke(buyer.purchaseId, `Reason ${i}`)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const reasons = new Set(results.map((r) => r.json().sale.revoked.reason));
    expect(reasons.size).toBe(1);
    expect(await state(buyer.purchaseId)).toMatchObject({ active: 0, events: 1, mails: 1 });
  });

  it('ends an active subscription at the provider so the buyer is not charged again', async () => {
    const { purchaseId } = await buyPaidProduct(
      t,
      vendor.vendorUrl,
      signals.extraPriceIds[0]!,
      'month',
    );
    expect((await state(purchaseId)).subscription_status).toBe('active');

    const res = await revoke(purchaseId, 'Chargeback threats in the community.');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sale.subscription.status).toBe('ended');
    expect(res.json().sale.subscription.nextPayment).toBeNull();
    // The sandbox ended it (its own subscription.ended event came back and changed nothing more).
    expect((await atStripe(t, purchaseId)).subscriptionStatus).toBe('canceled');
    const outbox = await t.database.db.execute<{ status: string; reason: string }>(
      sql`select status, reason from auto_refunds where purchase_id = ${purchaseId}`,
    );
    expect(outbox.rows[0]).toEqual({ status: 'done', reason: 'revoked' });
    expect(await state(purchaseId)).toMatchObject({ active: 0, events: 1 });
    // No money moved: the sale stays in the ledger as it was.
    const refunds = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ledger_entries
          where purchase_id = ${purchaseId} and entry_type = 'refund_reversal'`,
    );
    expect(refunds.rows[0]!.n).toBe(0);
  });

  it('refuses bad reasons, other vendors’ sales, unpaid and refunded purchases, and changes nothing', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    for (const reason of ['', '   ', 'a\u0000b', 'x'.repeat(REVOKE_REASON_MAX + 1), 42, null]) {
      const res = await revoke(buyer.purchaseId, reason);
      expect(res.statusCode, String(reason)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    // Another vendor, an unknown id and a buyer cannot see it.
    expect((await revoke(buyer.purchaseId, 'Mine now', otherToken)).statusCode).toBe(404);
    expect((await revoke('pur_unknown', 'Nope')).statusCode).toBe(404);
    expect((await revoke(buyer.purchaseId, 'Nope', buyer.token)).statusCode).toBe(403);
    expect(await state(buyer.purchaseId)).toMatchObject({
      revoked_at: null,
      active: 2,
      owned: 1,
      events: 0,
    });

    const pending = await createBuyer(t);
    const sessionId = await startProductCheckout(t, pending, vendor.vendorUrl, {
      priceId: app.priceId,
    });
    const pendingId = await purchaseIdOfSession(t, sessionId);
    expect((await revoke(pendingId, 'Not paid')).statusCode).toBe(404);

    const refunded = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    expect((await sandboxPaymentAction(t, refunded.purchaseId, 'refund')).statusCode).toBeLessThan(
      400,
    );
    const res = await revoke(refunded.purchaseId, 'Too late');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe(ordersMessages.revokeNotPaid);
    expect((await state(refunded.purchaseId)).events).toBe(0);
  });
});
