import {
  catalogRoutes,
  ordersMessages,
  ordersRoutes,
  usersMessages,
  vendorBundleMessages as m,
  vendorBundlesRoutes as r,
  vendorProductsRoutes,
  type RouteDef,
  type VendorBundleInput,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createProduct, searchWord, signedInVendor } from '../../../test/factories/catalog.ts';
import { createBuyer, paySession, purchaseIdOfSession } from '../../../test/factories/orders.ts';
import { expectCursorsRefused, expectRefused } from '../../../test/cursors.ts';
import { multipartBody } from '../../../test/http.ts';
import { useTestApp, type CallOptions } from '../../../test/harness.ts';
import { startTestAppWithPages } from '../../../test/pages.ts';

/**
 * Issue 19: vendors make, edit, price, publish and unpublish their bundles. Search's id cache and the
 * page cache run as in production (60 s and 10 s), so an edit that did not reach them would fail here.
 */

const t = useTestApp(startTestAppWithPages, 300_000);

/** A vendor with a storefront and two published products (one-time prices 49.00 and 29.00). */
async function newVendor() {
  const vendor = await signedInVendor(t);
  const a = await createProduct(t, vendor.id, { title: `Ribbon ${searchWord()}`, amount: 4900 });
  const b = await createProduct(t, vendor.id, { title: `Alerts ${searchWord()}`, amount: 2900 });
  return { ...vendor, a, b };
}

const draft = (
  productIds: string[],
  overrides: Partial<VendorBundleInput> = {},
): VendorBundleInput => ({
  title: `Momentum ${searchWord()} kit`,
  summary: 'Two tools, one price.',
  description: '## Inside\n\n- The ribbon\n- **Alerts**',
  productIds,
  price: { amount: 6000, currency: 'usd' },
  ...overrides,
});

type Bundle = {
  id: string;
  slug: string;
  title: string;
  status: string;
  publicPath: string;
  publishedAt: string | null;
  updatedAt: string;
  imageUrl: string | null;
  price: { priceId: string; amount: number; currency: string } | null;
  products: Array<{ id: string; status: string; price: { amount: number } | null }>;
  saving: { value: number; amount: number; percent: number } | null;
  missingToPublish: Record<string, string>;
};

const call = (route: RouteDef, options: CallOptions) => t.call(route, options);

async function create(token: string, body: VendorBundleInput) {
  const res = await call(r.createVendorBundle, { token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bundle as Bundle;
}

const publish = (token: string, id: string) =>
  call(r.publishVendorBundle, { token, params: { id } });

const searchBundles = async (q: string) =>
  (await t.call(catalogRoutes.search, { query: { q } }))
    .json()
    .bundles.map((b: { id: string }) => b.id) as string[];

const sitemap = async () =>
  (await t.app.inject({ method: 'GET', url: '/sitemaps/bundles.xml' })).body;

const page = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', accept: 'text/html' } });

const details = (id: string, token?: string) =>
  t.call(catalogRoutes.bundleDetails, { query: { id }, ...(token ? { token } : {}) });

function coverUpload(token: string, id: string, data: Buffer, filename = 'cover.png') {
  const { body, contentType } = multipartBody([
    { name: 'file', filename, type: 'image/png', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/bundles/${id}/cover`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

const png = (w = 64, h = 48) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#446622' } })
    .png()
    .toBuffer();

const localPath = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

/** A new buyer pays for the bundle on the sandbox's hosted page; the buyer and the purchase. */
async function buyBundle(bundleId: string) {
  const buyer = await createBuyer(t);
  const res = await t.call(ordersRoutes.checkoutBundle, { token: buyer.token, body: { bundleId } });
  expect(res.statusCode, res.body).toBe(201);
  await paySession(t, res.json().sessionId);
  return { ...buyer, purchaseId: await purchaseIdOfSession(t, res.json().sessionId) };
}

describe('who may call', () => {
  it('refuses a buyer without a storefront on every route (403, says to set one up)', async () => {
    const v = await newVendor();
    const bundle = await create(v.token, draft([v.a.id, v.b.id]));
    const buyer = await createBuyer(t);
    const id = bundle.id;
    const calls: Array<[RouteDef, CallOptions]> = [
      [r.vendorBundles, {}],
      [r.vendorBundleProducts, {}],
      [r.vendorBundle, { params: { id } }],
      [r.createVendorBundle, { body: draft([v.a.id, v.b.id]) }],
      [r.updateVendorBundle, { params: { id }, body: draft([v.a.id, v.b.id]) }],
      [r.publishVendorBundle, { params: { id } }],
      [r.unpublishVendorBundle, { params: { id } }],
      [r.removeVendorBundleCover, { params: { id } }],
    ];
    for (const [route, options] of calls) {
      const res = await call(route, { ...options, token: buyer.token });
      expect(res.statusCode, route.path).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', error: m.setUpStorefront });
    }
    expect((await coverUpload(buyer.token, id, await png())).statusCode).toBe(403);
    expect((await call(r.vendorBundles, {})).statusCode).toBe(401);
    // The vendor-role endpoint's own token works here, as on every workspace route (ADR 039).
    const scoped = await t.deps.tokens.sign(
      { sub: v.user.id, email: v.user.email, roles: ['buyer', 'vendor'] },
      'tradeshelf:vendor',
    );
    const mine = await call(r.vendorBundles, { token: scoped });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().bundles.map((b: { id: string }) => b.id)).toEqual([id]);
  });

  it("answers 404 for another vendor's bundle on every route, changing nothing", async () => {
    const owner = await newVendor();
    const stranger = await newVendor();
    const bundle = await create(owner.token, draft([owner.a.id, owner.b.id]));
    const id = bundle.id;
    const calls: Array<[RouteDef, CallOptions]> = [
      [r.vendorBundle, { params: { id } }],
      [r.updateVendorBundle, { params: { id }, body: draft([stranger.a.id, stranger.b.id]) }],
      [r.publishVendorBundle, { params: { id } }],
      [r.unpublishVendorBundle, { params: { id } }],
      [r.removeVendorBundleCover, { params: { id } }],
    ];
    for (const [route, options] of calls) {
      const res = await call(route, { ...options, token: stranger.token });
      expect(res.statusCode, route.path).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', error: m.notFound });
    }
    expect((await coverUpload(stranger.token, id, await png())).statusCode).toBe(404);
    expect((await call(r.vendorBundles, { token: stranger.token })).json().bundles).toEqual([]);
    const mine = await call(r.vendorBundle, { token: owner.token, params: { id } });
    expect(mine.json().bundle).toMatchObject({
      title: bundle.title,
      status: 'draft',
      imageUrl: null,
      products: expect.arrayContaining([
        expect.objectContaining({ id: owner.a.id }),
        expect.objectContaining({ id: owner.b.id }),
      ]),
    });
  });
});

describe('what a bundle may hold', () => {
  it("refuses another vendor's products and unknown ids alike (422), fewer than 2 and repeats (400)", async () => {
    const v = await newVendor();
    const other = await newVendor();
    const cases: Array<[string[], number, string]> = [
      [[v.a.id, other.a.id], 422, m.productUnknown],
      [[v.a.id, 'prd_doesnotexist'], 422, m.productUnknown],
      [[v.a.id], 400, m.productsMin],
      [[], 400, m.productsMin],
      [[v.a.id, v.a.id], 400, m.productsUnique],
    ];
    for (const [ids, status, message] of cases) {
      const res = await call(r.createVendorBundle, { token: v.token, body: draft(ids) });
      expect(res.statusCode, ids.join()).toBe(status);
      expect(res.json().fields.productIds, ids.join()).toBe(message);
      // Nothing in the answer about the other vendor's product.
      expect(res.body).not.toContain(other.a.title);
    }
    expect((await call(r.vendorBundles, { token: v.token })).json().bundles).toEqual([]);

    const bundle = await create(v.token, draft([v.a.id, v.b.id]));
    const borrowed = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: draft([v.a.id, v.b.id, other.b.id]),
    });
    expect(borrowed.statusCode).toBe(422);
    expect(borrowed.json()).toMatchObject({
      code: 'business_rule',
      fields: { productIds: m.productUnknown },
    });
    const after = (await call(r.vendorBundle, { token: v.token, params: { id: bundle.id } })).json()
      .bundle as Bundle;
    expect(after.products.map((p) => p.id).sort()).toEqual([v.a.id, v.b.id].sort());
  });

  it('the picker lists only the caller’s products, found by title, a page at a time', async () => {
    const v = await newVendor();
    const other = await newVendor();
    const c = await createProduct(t, v.id, {
      title: `Scanner ${searchWord()}`,
      isActive: false,
    });
    const all = await call(r.vendorBundleProducts, { token: v.token, query: { limit: '2' } });
    expect(all.statusCode, all.body).toBe(200);
    const first = all.json();
    expect(first.products.map((p: { id: string }) => p.id)).toEqual([v.b.id, v.a.id]);
    expect(first.products[0]).toMatchObject({
      status: 'published',
      kind: 'indicator',
      price: { amount: 2900, currency: 'usd' },
    });
    const next = await call(r.vendorBundleProducts, {
      token: v.token,
      query: { limit: '2', cursor: first.nextCursor },
    });
    expect(next.json()).toMatchObject({
      products: [{ id: c.id, status: 'draft' }],
      nextCursor: null,
    });
    const found = await call(r.vendorBundleProducts, {
      token: v.token,
      query: { q: v.a.title.split(' ')[1]!.toUpperCase() },
    });
    expect(found.json().products.map((p: { id: string }) => p.id)).toEqual([v.a.id]);
    // Another vendor's product is found by nobody else; its id is no cursor (cursors are signed, ADR 051).
    const theirs = await call(r.vendorBundleProducts, {
      token: v.token,
      query: { q: other.a.title },
    });
    expect(theirs.json().products).toEqual([]);
    expectRefused(
      await call(r.vendorBundleProducts, { token: v.token, query: { cursor: other.a.id } }),
      'cursor',
      'a product id as the cursor',
    );
    const foreignCursor = await call(r.vendorBundleProducts, {
      token: other.token,
      query: { cursor: first.nextCursor },
    });
    expect(foreignCursor.json().products).toEqual([]);
  });
});

describe('the bundle list', () => {
  it('pages most recently edited first and filters by status, drafts included', async () => {
    const v = await newVendor();
    const a = await create(v.token, draft([v.a.id, v.b.id]));
    const b = await create(v.token, draft([v.a.id, v.b.id]));
    const c = await create(v.token, draft([v.a.id, v.b.id], { price: null }));
    expect((await publish(v.token, b.id)).statusCode).toBe(200);
    const first = await call(r.vendorBundles, { token: v.token, query: { limit: '2' } });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.bundles.map((x: { id: string }) => x.id)).toEqual([b.id, c.id]);
    expect(page1.bundles[0]).toMatchObject({
      status: 'published',
      price: { amount: 6000, currency: 'usd' },
      productsCount: 2,
      publicPath: b.publicPath,
    });
    expect(page1.bundles[1]).toMatchObject({ status: 'draft', price: null });
    const page2 = await call(r.vendorBundles, {
      token: v.token,
      query: { limit: '2', cursor: page1.nextCursor },
    });
    expect(page2.json()).toMatchObject({ bundles: [{ id: a.id }], nextCursor: null });
    const drafts = await call(r.vendorBundles, { token: v.token, query: { status: 'draft' } });
    expect(drafts.json().bundles.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
    const bad = await call(r.vendorBundles, { token: v.token, query: { cursor: 'nope' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('publishing, edits and unpublishing reach the public side at once', () => {
  it('create → publish → on its page, in search, the storefront and the sitemap', async () => {
    const v = await newVendor();
    const w = searchWord();
    const bundle = await create(v.token, draft([v.a.id, v.b.id], { title: `Aurora ${w} bundle` }));
    expect(bundle).toMatchObject({
      status: 'draft',
      publicPath: `/b/${bundle.id}/aurora-${w}-bundle`,
    });
    // The vendor sees what buyers will: 49.00 + 29.00 against 60.00.
    expect(bundle.saving).toEqual({ value: 7800, amount: 1800, percent: 23 });
    // A draft is nowhere public.
    expect(await searchBundles(w)).toEqual([]);
    expect((await details(bundle.id)).statusCode).toBe(404);
    expect((await page(bundle.publicPath)).statusCode).toBe(404);
    expect(await sitemap()).not.toContain(bundle.id);

    const res = await publish(v.token, bundle.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().bundle).toMatchObject({ status: 'published', missingToPublish: {} });
    expect(res.json().bundle.publishedAt).not.toBeNull();
    expect(await searchBundles(w)).toEqual([bundle.id]);
    expect((await details(bundle.id)).json().bundle).toMatchObject({
      title: `Aurora ${w} bundle`,
      valueAmount: 7800,
      price: { amount: 6000 },
    });
    const html = await page(bundle.publicPath);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain(`Aurora ${w} bundle`);
    expect(html.body).toContain(v.a.title);
    expect(await sitemap()).toContain(`${bundle.publicPath}</loc>`);
    const storefront = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: v.vendorUrl },
    });
    expect(storefront.json().bundles.map((b: { id: string }) => b.id)).toEqual([bundle.id]);
    // Publishing again changes nothing.
    expect((await publish(v.token, bundle.id)).json().bundle.publishedAt).toBe(
      res.json().bundle.publishedAt,
    );
  });

  it('an edited title is found by its new word, not its old one, and cached pages follow', async () => {
    const v = await newVendor();
    const [oldWord, newWord, bodyWord] = [searchWord(), searchWord(), searchWord()];
    const bundle = await create(
      v.token,
      draft([v.a.id, v.b.id], { title: `Falcon ${oldWord} set` }),
    );
    await publish(v.token, bundle.id);
    // Warm both caches with the old version.
    expect(await searchBundles(oldWord)).toEqual([bundle.id]);
    expect(await searchBundles(newWord)).toEqual([]);
    expect((await page(bundle.publicPath)).body).toContain(`Falcon ${oldWord} set`);
    expect((await page(bundle.publicPath)).headers.age).toBeDefined();

    const input = draft([v.a.id, v.b.id], { title: `Falcon ${newWord} set` });
    const saved = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: input,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const edited = saved.json().bundle as Bundle;
    expect(await searchBundles(newWord)).toEqual([bundle.id]);
    expect(await searchBundles(oldWord)).toEqual([]);
    // The old address moves to the new one, which shows the new title.
    const moved = await page(bundle.publicPath);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toContain(edited.publicPath);
    expect((await page(edited.publicPath)).body).toContain(`Falcon ${newWord} set`);
    const map = await sitemap();
    expect(map).toContain(`${edited.publicPath}</loc>`);
    expect(map).not.toContain(`${bundle.publicPath}</loc>`);

    // Same address, cached, then a description edit: the page shows it at once.
    expect((await page(edited.publicPath)).headers.age).toBeDefined();
    await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: { ...input, description: `Now with ${bodyWord} zones.` },
    });
    expect((await page(edited.publicPath)).body).toContain(`Now with ${bodyWord} zones.`);
  });

  it('unpublished: gone from search, storefront and sitemap, page 404; buyers keep their purchase', async () => {
    const v = await newVendor();
    const w = searchWord();
    const bundle = await create(v.token, draft([v.a.id, v.b.id], { title: `Harbor ${w} pack` }));
    await publish(v.token, bundle.id);
    const buyer = await buyBundle(bundle.id);
    expect(await searchBundles(w)).toEqual([bundle.id]);
    expect((await page(bundle.publicPath)).statusCode).toBe(200);

    const res = await call(r.unpublishVendorBundle, { token: v.token, params: { id: bundle.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json().bundle.status).toBe('unpublished');
    expect(await searchBundles(w)).toEqual([]);
    expect(await sitemap()).not.toContain(bundle.id);
    expect((await page(bundle.publicPath)).statusCode).toBe(404);
    expect((await details(bundle.id)).statusCode).toBe(404);
    const storefront = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: v.vendorUrl },
    });
    expect(storefront.json().bundles).toEqual([]);
    const purchases = await t.call(ordersRoutes.purchaseList, { token: buyer.token });
    expect(purchases.json().purchases).toMatchObject([
      { id: buyer.purchaseId, item: { type: 'bundle', id: bundle.id } },
    ]);
    const owned = await t.call(catalogRoutes.productDetails, {
      token: buyer.token,
      query: { id: v.a.id },
    });
    expect(owned.json().product.purchased).toBe(true);
    // Publishing it again brings it back.
    expect((await publish(v.token, bundle.id)).json().bundle.status).toBe('published');
    expect(await searchBundles(w)).toEqual([bundle.id]);
  });

  it('will not publish without two published products, a title, a summary and a price', async () => {
    const v = await newVendor();
    const hidden = await createProduct(t, v.id, {
      title: `Draft ${searchWord()}`,
      isActive: false,
    });
    const bundle = await create(
      v.token,
      draft([v.a.id, hidden.id], { title: '', summary: '', price: null }),
    );
    expect(bundle.missingToPublish).toEqual({
      title: m.titleRequired,
      summary: m.summaryRequired,
      price: m.priceRequired,
      productIds: m.publishedProducts,
    });
    // The draft product is shown to the vendor but left out of the value buyers see.
    expect(bundle.products.find((p) => p.id === hidden.id)).toMatchObject({ status: 'draft' });
    const res = await publish(v.token, bundle.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'business_rule',
      error: `Add a title, a summary and a price before publishing. ${m.publishedProducts}`,
      fields: { productIds: m.publishedProducts, price: m.priceRequired },
    });
    const words = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: draft([v.a.id, hidden.id]),
    });
    expect(words.statusCode).toBe(200);
    const only = await publish(v.token, bundle.id);
    expect(only.statusCode).toBe(422);
    expect(only.json()).toMatchObject({
      error: m.publishedProducts,
      fields: { productIds: m.publishedProducts },
    });
    expect((await details(bundle.id)).statusCode).toBe(404);

    // Published, it cannot drop below two published products (or lose its price) by an edit.
    const ok = await create(v.token, draft([v.a.id, v.b.id]));
    await publish(v.token, ok.id);
    for (const body of [draft([v.a.id, hidden.id]), draft([v.a.id, v.b.id], { price: null })]) {
      const stripped = await call(r.updateVendorBundle, {
        token: v.token,
        params: { id: ok.id },
        body,
      });
      expect(stripped.statusCode).toBe(422);
      expect(stripped.json().code).toBe('business_rule');
    }
    const still = (await details(ok.id)).json().bundle;
    expect(still.productIds.sort()).toEqual([v.a.id, v.b.id].sort());
  });
});

describe('the price', () => {
  it('a changed price is a new price, the old one archived; the saving counts one-time prices first', async () => {
    const v = await newVendor();
    // Sold monthly at 9.00 first, and once at 99.00: the bundle's value counts the one-time price.
    const monthlyFirst = await createProduct(t, v.id, {
      title: `Desk ${searchWord()}`,
      amount: 9900,
      extraPrices: [900],
    });
    await t.database.db
      .execute(sql`update prices set position = case when scheme = 'one_time' then 1 else 0 end
      where product_id = ${monthlyFirst.id}`);
    const bundle = await create(v.token, draft([v.a.id, monthlyFirst.id]));
    expect(bundle.saving).toEqual({ value: 14_800, amount: 8800, percent: 59 });
    await publish(v.token, bundle.id);
    const buyer = await buyBundle(bundle.id);
    const old = bundle.price!.priceId;

    const kept = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: draft([v.a.id, monthlyFirst.id], { title: bundle.title }),
    });
    expect(kept.json().bundle.price.priceId).toBe(old);
    const dearer = draft([v.a.id, monthlyFirst.id], {
      title: bundle.title,
      price: { amount: 16_000, currency: 'usd' },
    });
    // On sale, dearer than its products: refused until the vendor confirms it (issue 27).
    const refused = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: dearer,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fields).toHaveProperty('confirmPriceAboveValue');
    expect((await details(bundle.id)).json().bundle.price.priceId).toBe(old);
    const res = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: { ...dearer, confirmPriceAboveValue: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json().bundle as Bundle;
    expect(edited.price!.priceId).not.toBe(old);
    // Dearer than its products: the vendor is told (a negative saving); buyers see no saving.
    expect(edited.saving).toEqual({ value: 14_800, amount: -1200, percent: -8 });
    const archived = await t.database.db.execute<{ amount: number; is_active: boolean }>(
      sql`select amount, is_active from prices where id = ${old}`,
    );
    expect(archived.rows[0]).toEqual({ amount: 6000, is_active: false });
    const purchase = await t.call(ordersRoutes.purchaseDetails, {
      token: buyer.token,
      params: { id: buyer.purchaseId },
    });
    expect(purchase.json().purchase).toMatchObject({
      item: { priceId: old },
      total: { amount: 6000 },
    });
    expect((await details(bundle.id)).json().bundle).toMatchObject({
      priceId: edited.price!.priceId,
      price: { amount: 16_000 },
      valueAmount: 14_800,
    });
  });
});

describe('a bundle dearer than its products (issue 27)', () => {
  it('publishing is refused (422, in words and on its field) unless the vendor confirms', async () => {
    const v = await newVendor();
    // 49.00 + 29.00 = 78.00 of products for 90.00: buyers would pay 12.00 more.
    const bundle = await create(
      v.token,
      draft([v.a.id, v.b.id], { price: { amount: 9000, currency: 'usd' } }),
    );
    expect(bundle.saving).toEqual({ value: 7800, amount: -1200, percent: -15 });
    const message =
      'The bundle costs $90.00, $12.00 more than its products bought separately ($78.00), so buyers save nothing. Lower the price, or confirm that you sell it above its parts.';
    for (const body of [undefined, {}, { confirmPriceAboveValue: false }]) {
      const res = await call(r.publishVendorBundle, {
        token: v.token,
        params: { id: bundle.id },
        ...(body ? { body } : {}),
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        error: message,
        code: 'business_rule',
        fields: { confirmPriceAboveValue: message },
      });
    }
    expect((await details(bundle.id)).statusCode).toBe(404);
    const ok = await call(r.publishVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      body: { confirmPriceAboveValue: true },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().bundle.status).toBe('published');
  });

  it('a bundle at or below its value publishes as before, with no confirmation', async () => {
    const v = await newVendor();
    for (const amount of [7800, 6000]) {
      const bundle = await create(
        v.token,
        draft([v.a.id, v.b.id], { price: { amount, currency: 'usd' } }),
      );
      expect((await publish(v.token, bundle.id)).statusCode).toBe(200);
    }
  });

  it('the page reads what each product counts for and on which plan', async () => {
    const v = await newVendor();
    // Sold only monthly at 19.00: the bundle counts its first payment.
    const room = await createProduct(t, v.id, {
      title: `Room ${searchWord()}`,
      kind: 'community',
      amount: 1900,
    });
    await t.database.db.execute(
      sql`update prices set scheme = 'recurring', interval = 'month' where product_id = ${room.id}`,
    );
    const bundle = await create(
      v.token,
      draft([v.a.id, room.id], { price: { amount: 6000, currency: 'usd' } }),
    );
    expect((await publish(v.token, bundle.id)).statusCode).toBe(200);
    const page = (await details(bundle.id)).json().bundle;
    expect(page.valueAmount).toBe(6800);
    expect(page.items).toEqual(
      expect.arrayContaining([
        {
          productId: v.a.id,
          counted: expect.objectContaining({ amount: 4900, scheme: 'one_time' }),
        },
        {
          productId: room.id,
          counted: expect.objectContaining({
            amount: 1900,
            scheme: 'recurring',
            interval: 'month',
          }),
        },
      ]),
    );
    expect(page.items.map((i: { productId: string }) => i.productId)).toEqual(
      page.products.map((p: { id: string }) => p.id),
    );
  });
});

describe('buyers keep what they bought', () => {
  it('taking a product out of a bundle takes nothing from its buyers; adding one gives nothing', async () => {
    const v = await newVendor();
    const c = await createProduct(t, v.id, { title: `Scanner ${searchWord()}`, amount: 1900 });
    const bundle = await create(v.token, draft([v.a.id, v.b.id]));
    await publish(v.token, bundle.id);
    const buyer = await buyBundle(bundle.id);
    const owns = async (productId: string) =>
      (
        await t.call(catalogRoutes.productDetails, { token: buyer.token, query: { id: productId } })
      ).json().product.purchased as boolean;
    expect([await owns(v.a.id), await owns(v.b.id), await owns(c.id)]).toEqual([true, true, false]);

    const res = await call(r.updateVendorBundle, {
      token: v.token,
      params: { id: bundle.id },
      // Now above its products' value (48.00): on sale only with the vendor's confirmation.
      body: draft([v.b.id, c.id], { title: bundle.title, confirmPriceAboveValue: true }),
    });
    expect(res.statusCode, res.body).toBe(200);
    // A is no longer in the bundle, but the buyer paid for it: still theirs, everywhere it is read.
    expect(await owns(v.a.id)).toBe(true);
    expect(await owns(c.id)).toBe(false);
    const again = await t.call(ordersRoutes.checkoutProduct, {
      token: buyer.token,
      query: { vendorUrl: v.vendorUrl },
      body: { priceId: v.a.priceId },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(ordersMessages.alreadyOwned);
    const order = await t.call(ordersRoutes.purchaseDetails, {
      token: buyer.token,
      params: { id: buyer.purchaseId },
    });
    const entitled = order
      .json()
      .purchase.entitlements.filter((e: { status: string }) => e.status === 'active')
      .map((e: { productId: string }) => e.productId);
    expect([...new Set(entitled)].sort()).toEqual([v.a.id, v.b.id].sort());
    // The bundle page shows what is in it now; the buyer still owns the bundle.
    const page = (await details(bundle.id, buyer.token)).json().bundle;
    expect(page.purchased).toBe(true);
    expect(page.productIds.sort()).toEqual([v.b.id, c.id].sort());
    // A new buyer gets what is in it now.
    const later = await buyBundle(bundle.id);
    const laterOwns = async (productId: string) =>
      (
        await t.call(catalogRoutes.productDetails, { token: later.token, query: { id: productId } })
      ).json().product.purchased as boolean;
    expect([await laterOwns(v.a.id), await laterOwns(c.id)]).toEqual([false, true]);
  });
});

describe('two tabs (ADR 040)', () => {
  it('a save from an older copy is refused (409) and changes nothing; without a base it replaces', async () => {
    const v = await newVendor();
    const c = await createProduct(t, v.id, { title: `Scanner ${searchWord()}`, amount: 1900 });
    const bundle = await create(v.token, draft([v.a.id, v.b.id]));
    const save = (body: VendorBundleInput, baseUpdatedAt?: string) =>
      call(r.updateVendorBundle, {
        token: v.token,
        params: { id: bundle.id },
        body: { ...body, ...(baseUpdatedAt ? { baseUpdatedAt } : {}) },
      });
    // Both tabs loaded the same copy and save at once: exactly one lands.
    const [a, b] = await Promise.all([
      save(draft([v.a.id, v.b.id], { title: 'Tab A title' }), bundle.updatedAt),
      save(draft([v.a.id, v.b.id], { title: 'Tab B title' }), bundle.updatedAt),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const won = (a.statusCode === 200 ? a : b).json().bundle as Bundle;
    expect((a.statusCode === 409 ? a : b).json()).toEqual({
      error: m.editConflict,
      code: 'conflict',
    });
    // A stale save of other products and another price changes nothing.
    const stale = await save(
      draft([v.b.id, c.id], { title: 'Stale', price: { amount: 1000, currency: 'usd' } }),
      bundle.updatedAt,
    );
    expect(stale.statusCode).toBe(409);
    const stored = (
      await call(r.vendorBundle, { token: v.token, params: { id: bundle.id } })
    ).json().bundle as Bundle;
    expect(stored.title).toBe(won.title);
    expect(stored.updatedAt).toBe(won.updatedAt);
    expect(stored.price?.amount).toBe(6000);
    expect(stored.products.map((p) => p.id).sort()).toEqual([v.a.id, v.b.id].sort());
    // The winner's copy saves again from what it got back; without a base a save replaces.
    expect((await save(draft([v.a.id, v.b.id]), won.updatedAt)).statusCode).toBe(200);
    const replaced = await save(draft([v.b.id, c.id], { title: 'Replaces' }));
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().bundle.title).toBe('Replaces');
    const bad = await save(draft([v.a.id, v.b.id]), 'yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.baseUpdatedAt).toBe(m.baseUpdatedAt);
  });
});

describe('the cover', () => {
  it('a draft takes a cover; wrong types and oversize files are refused; a new one replaces it', async () => {
    const v = await newVendor();
    const bundle = await create(v.token, draft([v.a.id, v.b.id]));
    const ok = await coverUpload(v.token, bundle.id, await png(), '../../../etc/passwd.png');
    expect(ok.statusCode, ok.body).toBe(200);
    const first: string = ok.json().bundle.imageUrl;
    // The stored name is ours: nothing of the client's file name reaches the path.
    expect(first).toMatch(new RegExp(`/files/public/bundles/${bundle.id}/`));
    expect(first).not.toMatch(/passwd|\.\./);
    expect((await t.app.inject({ method: 'GET', url: localPath(first) })).statusCode).toBe(200);

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const wrongType = await coverUpload(v.token, bundle.id, svg, 'x.png');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().fields.file).toBe(usersMessages.imageType);
    const huge = Buffer.concat([await png(), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const big = await coverUpload(v.token, bundle.id, huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().fields.file).toBe(usersMessages.imageTooLarge);
    const read = await call(r.vendorBundle, { token: v.token, params: { id: bundle.id } });
    expect(read.json().bundle.imageUrl).toBe(first);

    const second = await coverUpload(v.token, bundle.id, await png(80, 60));
    const replaced: string = second.json().bundle.imageUrl;
    expect(replaced).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: localPath(first) })).statusCode).toBe(404);
    await publish(v.token, bundle.id);
    expect((await details(bundle.id)).json().bundle.imageUrl).toBe(replaced);

    const removed = await call(r.removeVendorBundleCover, {
      token: v.token,
      params: { id: bundle.id },
    });
    expect(removed.json().bundle.imageUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: localPath(replaced) })).statusCode).toBe(404);
    // Published: the public side follows at once.
    expect((await details(bundle.id)).json().bundle.imageUrl).toBeNull();
  });
});

describe('times PostgreSQL refuses (issue 26)', () => {
  it("refuses the products list's cursor (the outside probe paged bundles with one)", async () => {
    const v = await newVendor();
    const products = await call(vendorProductsRoutes.vendorProducts, {
      token: v.token,
      query: { limit: '1' },
    });
    expect(products.statusCode).toBe(200);
    const cursor = products.json().nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expectRefused(
      await call(r.vendorBundles, { token: v.token, query: { cursor } }),
      'cursor',
      'a products cursor',
    );
  });

  it('answers 400 naming `cursor` for a forged list cursor', async () => {
    const v = await newVendor();
    await expectCursorsRefused((cursor) =>
      call(r.vendorBundles, { token: v.token, query: { cursor } }),
    );
  });
});
