import { ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBundle, createProduct, createVendor } from '../../test/factories/catalog.ts';
import { createBuyer, deliverEvent, paySession } from '../../test/factories/orders.ts';
import { useTestApp } from '../../test/harness.ts';
import { subscribers } from './subscribers.ts';
import type { DomainEvent } from './types.ts';

// The real modules' subscribers receive every event again, twice, and in reverse order: what they
// keep (ownership, sales counts, entitlements) must come out exactly as the first delivery left it.

const t = useTestApp();
let vendor: Awaited<ReturnType<typeof createVendor>>;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'redelivery-vendor' });
});

async function buy(priceId: string | null, bundleId: string | null = null) {
  const buyer = await createBuyer(t);
  const res = bundleId
    ? await t.call(ordersRoutes.checkoutBundle, {
        token: buyer.token,
        query: { vendorUrl: vendor.vendorUrl },
        body: { bundleId },
      })
    : await t.call(ordersRoutes.checkoutProduct, {
        token: buyer.token,
        query: { vendorUrl: vendor.vendorUrl },
        body: { priceId: priceId! },
      });
  expect(res.statusCode, res.body).toBe(201);
  await paySession(t, res.json().sessionId);
  const row = await t.database.db.execute<{ id: string }>(
    sql`select id from purchases where buyer_id = ${buyer.id}`,
  );
  return { buyer, purchaseId: row.rows[0]!.id };
}

async function eventsOf(purchaseId: string): Promise<DomainEvent[]> {
  const found = await t.database.db.execute<{
    id: string;
    type: DomainEvent['type'];
    stream: string;
    version: number;
    data: unknown;
    occurred_at: Date | string;
  }>(sql`select * from domain_events where stream = ${purchaseId} order by version`);
  return found.rows.map(
    (r) =>
      ({
        id: r.id,
        type: r.type,
        stream: r.stream,
        version: r.version,
        data: r.data,
        occurredAt: new Date(r.occurred_at).toISOString(),
      }) as DomainEvent,
  );
}

/** Hands `events` to every subscriber that wants them, each in its own transaction. */
async function redeliver(events: DomainEvent[]) {
  const all = subscribers(() => t.deps);
  for (const event of events)
    for (const s of all.filter((x) => x.types.includes(event.type)))
      await t.database.db.transaction((tx) => s.handle(tx, event));
}

/** Everything the subscribers keep about one buyer and the products they bought. */
async function kept(buyerId: string, productIds: string[]) {
  const db = t.database.db;
  const [owned, ents, sales] = await Promise.all([
    db.execute(sql`select product_id, bundle_id, source, revoked_at is not null as revoked
      from ownerships where user_id = ${buyerId} order by source, product_id, bundle_id`),
    db.execute(sql`select product_id, kind, status, ends_at, ended_reason
      from entitlements where user_id = ${buyerId} order by product_id, kind`),
    db.execute(sql`select id, sales_count from products
      where id = any(${sql.param(productIds)}::text[]) order by id`),
  ]);
  return { owned: owned.rows, ents: ents.rows, sales: sales.rows };
}

describe('redelivered and reordered events', () => {
  it('change nothing after a payment: ownership, sales counts and entitlements stay as they were', async () => {
    const course = await createProduct(t, vendor.id, { kind: 'course', amount: 4_000 });
    const community = await createProduct(t, vendor.id, { kind: 'community', amount: 3_000 });
    const bundle = await createBundle(t, vendor.id, [course.id, community.id], 6_000);
    const { buyer, purchaseId } = await buy(null, bundle.id);
    const products = [course.id, community.id];
    const before = await kept(buyer.id, products);
    expect(before.ents).toHaveLength(4); // access + enrolment, access + Discord role
    expect(before.sales.map((r) => (r as { sales_count: number }).sales_count)).toEqual([1, 1]);

    const events = await eventsOf(purchaseId);
    expect(events.map((e) => e.type)).toEqual(['purchase.paid']);
    await redeliver([...events, ...events]);
    expect(await kept(buyer.id, products)).toEqual(before);
  });

  it('change nothing after a full refund, delivered twice and in reverse order', async () => {
    const indicator = await createProduct(t, vendor.id, { kind: 'indicator', amount: 2_500 });
    const { buyer, purchaseId } = await buy(indicator.priceId);
    const refunded = await deliverEvent(t, {
      id: `evt_rf_${purchaseId}`,
      type: 'refund',
      purchaseId,
    });
    expect(refunded.statusCode).toBe(200);
    const after = await kept(buyer.id, [indicator.id]);
    expect(after.ents).toEqual([
      expect.objectContaining({ kind: 'access', status: 'ended', ended_reason: 'refunded' }),
    ]);
    expect(after.owned).toEqual([expect.objectContaining({ revoked: true })]);

    const events = await eventsOf(purchaseId);
    expect(events.map((e) => e.type)).toEqual(['purchase.paid', 'purchase.refunded']);
    await redeliver([...events].reverse());
    await redeliver(events);
    expect(await kept(buyer.id, [indicator.id])).toEqual(after);
  });

  it('keep an ended subscription ended when a late cancellation or resumption arrives', async () => {
    const signals = await createProduct(t, vendor.id, {
      kind: 'community',
      amount: 15_000,
      extraPrices: [1_500],
    });
    const { buyer, purchaseId } = await buy(signals.extraPriceIds[0]!);
    const periodEnd = new Date(Date.now() + 86_400_000);
    const send = (
      id: string,
      type: 'subscription.updated' | 'subscription.ended',
      cancel?: boolean,
    ) =>
      deliverEvent(t, {
        id: `${id}_${purchaseId}`,
        type,
        purchaseId,
        periodEnd,
        ...(cancel === undefined ? {} : { cancelAtPeriodEnd: cancel }),
      });
    expect((await send('evt_c', 'subscription.updated', true)).statusCode).toBe(200);
    expect((await send('evt_u', 'subscription.updated', false)).statusCode).toBe(200);
    expect((await send('evt_c2', 'subscription.updated', true)).statusCode).toBe(200);
    expect((await send('evt_e', 'subscription.ended')).statusCode).toBe(200);
    const after = await kept(buyer.id, [signals.id]);
    expect(after.ents.every((e) => (e as { status: string }).status === 'ended')).toBe(true);

    const events = await eventsOf(purchaseId);
    expect(events.map((e) => e.type)).toEqual([
      'purchase.paid',
      'subscription.cancelling',
      'subscription.resumed',
      'subscription.cancelling',
      'subscription.ended',
    ]);
    await redeliver([...events].reverse());
    await redeliver(events.slice(1, 3));
    expect(await kept(buyer.id, [signals.id])).toEqual(after);
  });
});
