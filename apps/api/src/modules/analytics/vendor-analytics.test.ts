import {
  analyticsRoutes,
  ordersRoutes,
  vendorAnalyticsMessages,
  vendorAnalyticsRoutes as r,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buyReferred,
  generateRef,
  openProgramme,
  vendorToken,
} from '../../../test/factories/affiliates.ts';
import {
  createBundle,
  createProduct,
  createVendor,
  type Vendor,
} from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import {
  createBuyer,
  paySession,
  sandboxPost,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';

const t = useTestApp(() => startTestApp({ PLATFORM_FEE_BPS: '500', PLATFORM_FEE_FIXED: '0' }));
let vendor: Vendor;
let other: Vendor;
let indicator: Awaited<ReturnType<typeof createProduct>>;
let tricky: Awaited<ReturnType<typeof createProduct>>;
let foreign: Awaited<ReturnType<typeof createProduct>>;
let vendorAuth: string;
let otherAuth: string;
let refundedBuyer: string;

const today = () => new Date().toISOString().slice(0, 10);
const TRICKY_TITLE = '=SUM(A1:A9), "quoted"';

/** A new buyer pays for a product on the sandbox's hosted page: the checkout session. */
async function buy(vendorUrl: string, priceId: string) {
  const buyer = await createBuyer(t);
  const sessionId = await startProductCheckout(t, buyer, vendorUrl, { priceId });
  await paySession(t, sessionId);
  return { buyer, sessionId };
}

async function viewPage(path: string, times: number) {
  const res = await t.call(analyticsRoutes.track, {
    body: {
      events: Array.from({ length: times }, (_, i) => ({
        type: 'page_view',
        anonymousId: `anon-viewer-${i}`,
        path,
        occurredAt: new Date().toISOString(),
      })),
    },
  });
  expect(res.statusCode).toBe(202);
}

const analytics = (token: string, query: Record<string, string> = {}) =>
  t.call(r.vendorAnalytics, { token, query });

beforeAll(async () => {
  ({
    vendor,
    other,
    vendorToken: vendorAuth,
    otherToken: otherAuth,
  } = await vendorAndOther(t, {
    vendor: { displayName: 'Chart Works' },
    other: { displayName: 'Elsewhere' },
    signIn: vendorToken,
  }));
  indicator = await createProduct(t, vendor.id, { title: 'Trend Indicator', amount: 10_000 });
  tricky = await createProduct(t, vendor.id, { title: TRICKY_TITLE, amount: 4_000 });
  foreign = await createProduct(t, other.id, { title: 'Foreign Scanner', amount: 7_000 });

  // Through the real checkout and the sandbox's payments: two plain sales of the indicator (one
  // refunded in full), one of the tricky product, one referred sale, and one of another vendor's.
  await buy(vendor.vendorUrl, indicator.priceId);
  const refunded = await buy(vendor.vendorUrl, indicator.priceId);
  refundedBuyer = refunded.buyer.email;
  expect((await sandboxPost(t, `/sandbox/payments/${refunded.sessionId}/refund`)).statusCode).toBe(
    303,
  );
  await buy(vendor.vendorUrl, tricky.priceId);
  await openProgramme(t, vendorAuth, { commissionBps: 2000 });
  const affiliate = await createBuyer(t);
  const referral = await generateRef(t, affiliate.token, vendor.id);
  await buyReferred(t, vendor.vendorUrl, indicator.priceId, referral.refId);
  await buy(other.vendorUrl, foreign.priceId);

  await viewPage(`/p/${indicator.id}/trend-indicator`, 3);
  await viewPage(`/p/${indicator.id}?utm_source=x`, 1);
  await viewPage(`/p/${foreign.id}/foreign-scanner`, 5);
});

describe('vendor analytics', () => {
  it('sums the purchases made through checkout: gross, refunds, fee, affiliate share and net', async () => {
    const res = await analytics(vendorAuth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // 3 × 100.00 + 40.00 charged; 100.00 refunded; 5 % fee on what was kept; 20 % commission.
    expect(body.totals).toEqual([
      {
        currency: 'usd',
        gross: 34_000,
        refunds: 10_000,
        fee: 1_200,
        affiliate: 2_000,
        net: 20_800,
        sales: 4,
        refundCount: 1,
      },
    ]);
    // The same as the vendor's account in the ledger.
    const ledger = await t.database.db.execute<{ n: string }>(
      sql`select coalesce(sum(amount), 0) as n from ledger_entries
          where account_type = 'vendor' and account_id = ${vendor.id}`,
    );
    expect(Number(ledger.rows[0]!.n)).toBe(20_800);

    expect(body.range).toMatchObject({ to: today(), interval: 'day', productId: null });
    const [usd] = body.series;
    expect(usd.currency).toBe('usd');
    expect(usd.points).toHaveLength(30);
    expect(usd.points.at(-1)).toMatchObject({
      period: today(),
      gross: 34_000,
      refunds: 10_000,
      affiliate: 2_000,
      net: 20_800,
      sales: 4,
      refundCount: 1,
    });
    expect(usd.points[0]).toMatchObject({ gross: 0, sales: 0 });

    expect(
      body.topProducts.byNet.map((p: { itemId: string; net: number }) => [p.itemId, p.net]),
    ).toEqual([
      [indicator.id, 17_000],
      [tricky.id, 3_800],
    ]);
    expect(
      body.topProducts.bySales.map((p: { title: string; sales: number }) => [p.title, p.sales]),
    ).toEqual([
      ['Trend Indicator', 3],
      [TRICKY_TITLE, 1],
    ]);
    expect(body.conversion).toEqual([
      { productId: indicator.id, title: 'Trend Indicator', views: 4, sales: 3, rate: 0.75 },
      { productId: tricky.id, title: TRICKY_TITLE, views: 0, sales: 1, rate: null },
    ]);
  });

  it('takes the vendor-role endpoint’s own token (docs/product.md#roles) as well', async () => {
    const scoped = await t.deps.tokens.sign(
      { sub: vendor.userId, email: 'v@example.com', roles: ['buyer', 'vendor'] },
      'tradeshelf:vendor',
    );
    const res = await analytics(scoped);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totals[0].gross).toBe(34_000);
  });

  it("never shows another vendor's sales, and filters by product", async () => {
    const theirs = (await analytics(otherAuth)).json();
    expect(theirs.totals).toMatchObject([{ currency: 'usd', gross: 7_000, sales: 1 }]);
    expect(theirs.conversion).toEqual([
      { productId: foreign.id, title: 'Foreign Scanner', views: 5, sales: 1, rate: 0.2 },
    ]);
    const mine = (await analytics(vendorAuth)).json();
    expect(JSON.stringify(mine)).not.toContain(foreign.id);

    const one = (await analytics(vendorAuth, { productId: tricky.id })).json();
    expect(one.totals).toMatchObject([{ gross: 4_000, net: 3_800, sales: 1 }]);
    expect(one.conversion).toHaveLength(1);
  });

  it('buckets by week and month, each bucket starting on its first day', async () => {
    const res = await analytics(vendorAuth, { from: '2026-01-01', to: today(), interval: 'month' });
    expect(res.statusCode, res.body).toBe(200);
    const points = res.json().series[0].points as Array<{ period: string; gross: number }>;
    expect(points[0]!.period).toBe('2026-01-01');
    expect(points.every((p) => p.period.endsWith('-01'))).toBe(true);
    expect(points.at(-1)).toMatchObject({ period: `${today().slice(0, 7)}-01`, gross: 34_000 });
    const weeks = (
      await analytics(vendorAuth, { from: '2026-01-01', to: today(), interval: 'week' })
    ).json().series[0].points as Array<{ period: string }>;
    // 2026-01-01 is a Thursday: its week began on Monday 2025-12-29.
    expect(weeks[0]!.period).toBe('2025-12-29');
    expect(weeks.every((p) => new Date(`${p.period}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
  });

  it('a range without sales answers zeros and empty tables', async () => {
    const res = await analytics(vendorAuth, { from: '2025-01-01', to: '2025-01-07' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ series: [], totals: [], conversion: [] });
  });

  it('refuses buyers (403), other vendors’ products (404) and bad ranges (400 by field)', async () => {
    const buyer = await createBuyer(t);
    for (const route of [r.vendorAnalytics, r.vendorAnalyticsExport]) {
      const denied = await t.call(route, { token: buyer.token });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({
        code: 'forbidden',
        error: vendorAnalyticsMessages.vendorsOnly,
      });
      const hidden = await t.call(route, { token: vendorAuth, query: { productId: foreign.id } });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().code).toBe('not_found');
      expect((await t.call(route, { token: null })).statusCode).toBe(401);
    }
    const m = vendorAnalyticsMessages;
    for (const [query, fields] of [
      [{ from: '2026-02-30', to: '2026-03-01' }, { from: m.date }],
      [{ from: '2026-03-02', to: '2026-03-01' }, { to: m.order }],
      [{ from: '2023-01-01', to: '2026-01-01' }, { from: m.tooLong }],
      [{ interval: 'hour' }, { interval: m.interval }],
      [{ from: '2999-01-01' }, { to: m.order }],
      // Days PostgreSQL has no such year for (issue 26).
      [
        { from: '0000-01-01', to: '0000-01-05' },
        { from: m.date, to: m.date },
      ],
      [{ from: '10000-01-01' }, { from: m.date }],
    ] as const) {
      const res = await analytics(vendorAuth, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields });
    }
  });
});

describe('the last days a timestamp may have (issue 26)', () => {
  it('answers a range ending on 9999-12-31 in every interval, and its export', async () => {
    const range = { from: '9999-12-01', to: '9999-12-31' };
    for (const interval of ['day', 'week', 'month']) {
      const res = await analytics(vendorAuth, { ...range, interval });
      expect(res.statusCode, `${interval}: ${res.body.slice(0, 200)}`).toBe(200);
    }
    const csv = await t.call(r.vendorAnalyticsExport, { token: vendorAuth, query: range });
    expect(csv.statusCode, csv.body.slice(0, 200)).toBe(200);
  });
});

describe('CSV export', () => {
  it('one row per payment and refund, as an attachment, with formula-safe cells', async () => {
    const res = await t.call(r.vendorAnalyticsExport, { token: vendorAuth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="sales-${(await analytics(vendorAuth)).json().range.from}-to-${today()}.csv"`,
    );
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'date,type,purchase_id,product,product_id,buyer_email,buyer_username,gross,fee,affiliate,net,currency,status',
    );
    expect(lines).toHaveLength(1 + 5);
    const cells = (line: string) => line.split(',');
    const refund = lines.find((l) => cells(l)[1] === 'refund')!;
    expect(refund).toContain(refundedBuyer);
    // The refund reverses the whole set: the fee comes back too.
    expect(cells(refund).slice(-6)).toEqual([
      '-100.00',
      '-5.00',
      '0.00',
      '-95.00',
      'usd',
      'refunded',
    ]);
    // A title that starts with `=` is text, not a formula; its comma and quotes are quoted.
    const trickyRow = lines.find((l) => l.includes(tricky.id))!;
    expect(trickyRow).toContain(`,"'=SUM(A1:A9), ""quoted""",${tricky.id},`);
    expect(trickyRow.endsWith(',40.00,2.00,0.00,38.00,usd,paid')).toBe(true);
    const referred = lines.filter((l) => l.includes(',20.00,75.00,usd,'));
    expect(referred).toHaveLength(1);
    expect(res.body).not.toContain(foreign.id);

    const one = await t.call(r.vendorAnalyticsExport, {
      token: vendorAuth,
      query: { productId: tricky.id },
    });
    expect(one.body.trimEnd().split('\r\n')).toHaveLength(2);
  });
});

describe('bundles', () => {
  it('count in the top lists and the filter, and stay out of conversion', async () => {
    const seller = await createVendor(t, { displayName: 'Kit Maker' });
    const auth = await vendorToken(t, seller);
    const a = await createProduct(t, seller.id, { title: 'Kit Ribbon', amount: 3_000 });
    const b = await createProduct(t, seller.id, { title: 'Kit Alerts', amount: 2_000 });
    const kit = await createBundle(t, seller.id, [a.id, b.id], 4_000, 'Kit Bundle');
    await buy(seller.vendorUrl, a.priceId);
    const buyer = await createBuyer(t);
    const checkout = await t.call(ordersRoutes.checkoutBundle, {
      token: buyer.token,
      body: { bundleId: kit.id },
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    await paySession(t, checkout.json().sessionId);

    const all = (await analytics(auth)).json();
    expect(all.products).toEqual([
      { id: b.id, title: 'Kit Alerts', type: 'product' },
      { id: kit.id, title: 'Kit Bundle', type: 'bundle' },
      { id: a.id, title: 'Kit Ribbon', type: 'product' },
    ]);
    expect(
      all.topProducts.bySales.map((p: { itemType: string; title: string; gross: number }) => [
        p.itemType,
        p.title,
        p.gross,
      ]),
    ).toEqual([
      ['bundle', 'Kit Bundle', 4_000],
      ['product', 'Kit Ribbon', 3_000],
    ]);
    expect(all.conversion.map((c: { productId: string }) => c.productId)).toEqual([a.id]);

    const one = await analytics(auth, { productId: kit.id });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({
      range: { productId: kit.id },
      totals: [{ gross: 4_000, sales: 1 }],
      conversion: [],
    });
    const csv = await t.call(r.vendorAnalyticsExport, {
      token: auth,
      query: { productId: kit.id },
    });
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(2);
    expect(csv.body).toContain('Kit Bundle');
    // Another vendor's bundle is as unknown as their products.
    expect((await analytics(vendorAuth, { productId: kit.id })).statusCode).toBe(404);
  });
});
