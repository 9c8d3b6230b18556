import {
  ordersRoutes,
  vendorAnalyticsRoutes,
  vendorSalesMessages,
  vendorSalesRoutes,
  type SaleMoney,
  type VendorAnalytics,
  type VendorSale,
  type VendorSaleDetail,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer } from '../../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { seedDemoPurchase } from './seed.ts';

// Issue 27: a seeded Discord sale showed "$49.00 Paid" in the sales list, $0.00 on its page, was
// missing from analytics, and its refund waited on the provider for ever. Over HTTP on a real
// database: a seeded sale and a bought one read the same money in the list, on the sale's page, in
// analytics and in the CSV export, and the seeded one refunds through the sandbox like the other.

let t: TestApp;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let token: string;
let tool: Awaited<ReturnType<typeof createProduct>>;
let discord: Awaited<ReturnType<typeof createProduct>>;
let sold: string;
let seeded: string;

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** A Discord community sold monthly, as the demo's is. */
async function createDiscord() {
  const product = await createProduct(t, vendor.id, {
    kind: 'community',
    title: 'Traders Discord',
    amount: 9_900,
    extraPrices: [4_900],
  });
  await t.database.db
    .execute(sql`update products set default_price_id = ${product.extraPriceIds[0]!}
    where id = ${product.id}`);
  return product;
}

/** A seeded sale of a Discord community's monthly plan (one a product: the demo's is keyed so). */
async function seedDiscordSale(product?: { id: string }): Promise<string> {
  const buyer = await createBuyer(t);
  const id = await seedDemoPurchase(t.database.db, {
    buyerId: buyer.id,
    productId: (product ?? (await createDiscord())).id,
    daysAgo: 3,
  });
  expect(id).not.toBeNull();
  return id!;
}

beforeAll(async () => {
  // The demo's fee (DEMO_FEE) is the default fee rule: seeded and bought sales split alike.
  t = await startTestApp({ PLATFORM_FEE_BPS: '500', PLATFORM_FEE_FIXED: '30' });
  vendor = await createVendor(t, { displayName: 'Money Labs' });
  token = await t.deps.tokens.sign({
    sub: vendor.userId,
    email: `${vendor.userId}@x.test`,
    roles: ['buyer', 'vendor'],
  });
  tool = await createProduct(t, vendor.id, { kind: 'app', title: 'Range Tool', amount: 2_900 });
  discord = await createDiscord();
  sold = (await buyPaidProduct(t, vendor.vendorUrl, tool.priceId)).purchaseId;
  seeded = await seedDiscordSale(discord);
});
afterAll(async () => {
  await t?.close();
});

const listRow = async (id: string): Promise<VendorSale> => {
  const res = await t.call(ordersRoutes.vendorSales, { token, query: {} });
  expect(res.statusCode, res.body).toBe(200);
  const row = (res.json().sales as VendorSale[]).find((s) => s.id === id);
  expect(row).toBeDefined();
  return row!;
};

const detail = async (id: string): Promise<VendorSaleDetail> => {
  const res = await t.call(vendorSalesRoutes.vendorSale, { token, params: { id } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sale as VendorSaleDetail;
};

const usd = (amount: number) => ({ amount, currency: 'usd' });

describe('one source for a sale’s money', () => {
  it('shows the same gross, fees and net in the list, on the sale’s page, in analytics and the CSV', async () => {
    const range = { from: daysAgo(10), to: today() };
    const res = await t.call(vendorAnalyticsRoutes.vendorAnalytics, { token, query: range });
    expect(res.statusCode, res.body).toBe(200);
    const analytics = res.json() as VendorAnalytics;
    const csv = await t.call(vendorAnalyticsRoutes.vendorAnalyticsExport, { token, query: range });
    expect(csv.statusCode, csv.body.slice(0, 200)).toBe(200);
    const csvRows = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    const header = csvRows[0]!;
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const major = (m: { amount: number }) => (m.amount / 100).toFixed(2);

    const seen: SaleMoney[] = [];
    for (const [id, productId, price] of [
      [sold, tool.id, 2_900],
      [seeded, discord.id, 4_900],
    ] as const) {
      const row = await listRow(id);
      const page = await detail(id);
      // What the buyer was charged, and where it went: 5% + 30 ¢ to the platform, the rest kept.
      const fee = Math.round(price * 0.05) + 30;
      expect(row.money).toEqual({
        gross: usd(price),
        refunded: usd(0),
        fees: usd(fee),
        affiliate: usd(0),
        net: usd(price - fee),
      });
      expect(row.status).toBe('paid');
      expect(page.ledger).toMatchObject(row.money);
      expect(page.payments.map((p) => p.amount)).toEqual([usd(price)]);
      // One sale per product in the range: its analytics figures are the sale's.
      const top = analytics.topProducts.byNet.find((p) => p.itemId === productId);
      expect(top).toMatchObject({ gross: price, net: price - fee, sales: 1 });
      const line = csvRows.find((r) => col(r, 'purchase_id') === id);
      expect(line, csv.body).toBeDefined();
      expect([col(line!, 'gross'), col(line!, 'fee'), col(line!, 'net')]).toEqual([
        major(row.money.gross),
        major(row.money.fees),
        major(row.money.net),
      ]);
      seen.push(row.money);
    }
    const totals = analytics.totals.find((x) => x.currency === 'usd')!;
    expect(totals).toMatchObject({
      gross: seen.reduce((s, m) => s + m.gross.amount, 0),
      fee: seen.reduce((s, m) => s + m.fees.amount, 0),
      net: seen.reduce((s, m) => s + m.net.amount, 0),
      sales: 2,
    });
  });
});

describe('refunding a seeded sale', () => {
  it('goes through the sandbox as a bought one does: refunded at once, never left waiting', async () => {
    const id = await seedDiscordSale();
    const res = await t.call(vendorSalesRoutes.vendorRefund, {
      token,
      params: { id },
      body: { reason: 'Changed my mind' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund.status).toBe('succeeded');
    const page = await detail(id);
    expect(page.status).toBe('refunded');
    expect(page.ledger.refunded).toEqual(usd(4_900));
    expect(page.ledger.net).toEqual(usd(0));
    expect(page.pendingRefund).toEqual(usd(0));
    const row = await listRow(id);
    expect(page.ledger).toMatchObject(row.money);
  });

  it('refuses at once, with the reason, a payment the provider has no record of', async () => {
    const id = await seedDiscordSale();
    // Stripe (its sandbox here) loses the charge: the payment intent names nothing it knows.
    await t.database.db.execute(sql`delete from sandbox_stripe_objects where type = 'charge'
      and data->>'payment_intent' in (select payment_ref from ledger_entries where purchase_id = ${id})`);
    const res = await t.call(vendorSalesRoutes.vendorRefund, {
      token,
      params: { id },
      body: { reason: 'Changed my mind' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatch(
      new RegExp(
        `^${vendorSalesMessages.refundProviderRefused} No such payment_intent: 'pi_[\\w-]+'$`,
      ),
    );
    const page = await detail(id);
    expect(page.status).toBe('paid');
    expect(page.pendingRefund).toEqual(usd(0));
    expect(page.refunds.map((r) => r.status)).toEqual(['failed']);
  });

  it('refuses at once a sale another payment provider took', async () => {
    const id = await seedDiscordSale();
    await t.database.db.execute(sql`update purchases set provider = 'paypal' where id = ${id}`);
    const res = await t.call(vendorSalesRoutes.vendorRefund, {
      token,
      params: { id },
      body: { reason: 'Changed my mind' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe(vendorSalesMessages.refundOtherProvider);
    expect((await detail(id)).refunds).toEqual([]);
  });
});
