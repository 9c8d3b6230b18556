import { tradingviewRoutes as r, tradingViewMessages as m } from '@tradeshelf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor, tokenOf } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer } from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';

// The workspace's TradingView page through the API: the vendor's products with their scripts (new),
// and the 403/404 cases tradingview.test.ts leaves out (adding scripts and setting a product's
// scripts as a buyer, completing another vendor's task).

const t = useTestApp();
type Vendor = { id: string; vendorUrl: string; token: string };
let vendor: Vendor;
let other: Vendor;
let buyerToken: string;

async function makeVendor(displayName: string): Promise<Vendor> {
  const v = await createVendor(t, { displayName });
  return { ...v, token: await tokenOf(t, v.userId) };
}

beforeAll(async () => {
  vendor = await makeVendor('Chart Works');
  other = await makeVendor('Other Works');
  buyerToken = (await createBuyer(t)).token;
});

describe('vendor TradingView products', () => {
  it('lists the vendor’s products by title with the scripts each delivers, paged', async () => {
    const zeta = await createProduct(t, vendor.id, { title: 'Zeta Bands' });
    const alpha = await createProduct(t, vendor.id, { title: 'alpha Scanner', kind: 'scanner' });
    await createProduct(t, other.id, { title: 'Not theirs' });
    const script = await t.call(r.createTradingViewScript, {
      token: vendor.token,
      body: { name: 'Zeta Core', url: 'https://www.tradingview.com/script/Zt4Kq2Lm-Zeta-Core/' },
    });
    expect(script.statusCode, script.body).toBe(201);
    const set = await t.call(r.setProductTradingViewScripts, {
      token: vendor.token,
      params: { id: zeta.id },
      body: { scriptIds: [script.json().script.id] },
    });
    expect(set.statusCode, set.body).toBe(200);

    const first = await t.call(r.vendorTradingViewProducts, {
      token: vendor.token,
      query: { limit: '1' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().products).toEqual([
      { id: alpha.id, title: 'alpha Scanner', kind: 'scanner', isActive: true, scripts: [] },
    ]);
    const second = await t.call(r.vendorTradingViewProducts, {
      token: vendor.token,
      query: { limit: '1', cursor: first.json().nextCursor },
    });
    expect(second.json()).toEqual({
      products: [
        {
          id: zeta.id,
          title: 'Zeta Bands',
          kind: 'indicator',
          isActive: true,
          scripts: [
            {
              id: script.json().script.id,
              name: 'Zeta Core',
              url: 'https://www.tradingview.com/script/Zt4Kq2Lm-Zeta-Core/',
            },
          ],
        },
      ],
      nextCursor: null,
    });
    // Another vendor's cursor pages nothing of this vendor's.
    const foreign = await t.call(r.vendorTradingViewProducts, {
      token: other.token,
      query: { cursor: first.json().nextCursor },
    });
    expect(foreign.json().products).toEqual([]);
    const bad = await t.call(r.vendorTradingViewProducts, {
      token: vendor.token,
      query: { limit: '500' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.limit).toBeTruthy();
  });

  it('answers 404 to another vendor’s task and leaves it pending', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Task Holder', amount: 2_000 });
    const script = await t.call(r.createTradingViewScript, {
      token: vendor.token,
      body: { name: 'Holder', url: 'https://www.tradingview.com/script/Hd9Kq2Lm-Holder/' },
    });
    await t.call(r.setProductTradingViewScripts, {
      token: vendor.token,
      params: { id: product.id },
      body: { scriptIds: [script.json().script.id] },
    });
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const named = await t.call(r.setTradingViewUsername, {
      token: buyer.token,
      body: { username: 'SomeTrader' },
    });
    expect(named.statusCode, named.body).toBe(200);
    const queue = await t.call(r.vendorTradingViewTasks, { token: vendor.token, query: {} });
    const task = queue.json().tasks[0];
    expect(task).toMatchObject({ kind: 'grant', username: 'SomeTrader', status: 'pending' });

    const foreign = await t.call(r.completeTradingViewTask, {
      token: other.token,
      params: { id: task.id },
      body: {},
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: m.taskNotFound, code: 'not_found' });
    const still = await t.call(r.vendorTradingViewTasks, { token: vendor.token, query: {} });
    expect(still.json().tasks[0]).toMatchObject({ id: task.id, status: 'pending' });
  });

  it('refuses a buyer on every vendor route (403)', async () => {
    for (const res of [
      await t.call(r.vendorTradingViewProducts, { token: buyerToken, query: {} }),
      await t.call(r.createTradingViewScript, {
        token: buyerToken,
        body: { name: 'Mine', url: 'https://www.tradingview.com/script/Ab12Cd34-Mine/' },
      }),
      await t.call(r.setProductTradingViewScripts, {
        token: buyerToken,
        params: { id: 'prd_any' },
        body: { scriptIds: [] },
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    }
  });
});
