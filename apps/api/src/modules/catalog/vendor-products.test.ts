import {
  catalogRoutes,
  ordersRoutes,
  usersMessages,
  vendorProductMessages as m,
  vendorProductsRoutes as r,
  type RouteDef,
  type VendorProductInput,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createProduct, searchWord, signedInVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer } from '../../../test/factories/orders.ts';
import { expectCursorsRefused, expectRefused, UNSTORABLE_TIMES } from '../../../test/cursors.ts';
import { multipartBody } from '../../../test/http.ts';
import { startTestApp, useTestApp, type CallOptions } from '../../../test/harness.ts';
import { startTestAppWithPages } from '../../../test/pages.ts';
import { checkCatalogChanges } from './catalog-changes.ts';

/**
 * Issue 19: vendors create, edit, publish and unpublish their products. Search's id cache and the page
 * cache run as in production (60 s and 10 s), so an edit that did not reach them would fail here.
 */

const t = useTestApp(startTestAppWithPages, 300_000);

const newVendor = () => signedInVendor(t);

const draft = (overrides: Partial<VendorProductInput> = {}): VendorProductInput => ({
  kind: 'indicator',
  title: `Momentum ${searchWord()} indicator`,
  summary: 'Shows when momentum turns.',
  description: '## What you get\n\n- Alerts\n- **Signals**',
  tags: ['momentum'],
  platforms: ['tradingview'],
  assetClasses: ['stocks'],
  plans: [{ billing: 'one_time', amount: 4900, currency: 'usd' }],
  ...overrides,
});

async function call(route: RouteDef, options: CallOptions) {
  return t.call(route, options);
}

async function create(token: string, body: VendorProductInput = draft()) {
  const res = await call(r.createVendorProduct, { token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().product as {
    id: string;
    slug: string;
    title: string;
    status: string;
    publicPath: string;
    plans: Array<{ priceId: string; amount: number; billing: string; trialDays: number }>;
    missingToPublish: Record<string, string>;
    updatedAt: string;
  };
}

const publish = (token: string, id: string) =>
  call(r.publishVendorProduct, { token, params: { id } });

const searchIds = async (q: string) =>
  (await t.call(catalogRoutes.search, { query: { q } }))
    .json()
    .products.map((p: { id: string }) => p.id) as string[];

const sitemap = async () =>
  (await t.app.inject({ method: 'GET', url: '/sitemaps/products-1.xml' })).body;

const page = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', accept: 'text/html' } });

const activePrices = async (productId: string) =>
  (
    await t.database.db.execute<{ id: string; amount: number }>(
      sql`select id, amount from prices where product_id = ${productId} and is_active order by position`,
    )
  ).rows;

function imageUpload(token: string, id: string, data: Buffer, filename = 'shot.png') {
  const { body, contentType } = multipartBody([
    { name: 'file', filename, type: 'image/png', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/products/${id}/images`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

const png = (w = 64, h = 48) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#224466' } })
    .png()
    .toBuffer();

describe('who may call', () => {
  it('refuses a buyer without a storefront on every route (403, says to set one up)', async () => {
    const buyer = await createBuyer(t);
    const { id } = await create((await newVendor()).token);
    const calls: Array<[RouteDef, CallOptions]> = [
      [r.vendorProducts, {}],
      [r.vendorProduct, { params: { id } }],
      [r.createVendorProduct, { body: draft() }],
      [r.updateVendorProduct, { params: { id }, body: draft() }],
      [r.publishVendorProduct, { params: { id } }],
      [r.unpublishVendorProduct, { params: { id } }],
      [r.setVendorProductImages, { params: { id }, body: { images: [] } }],
    ];
    for (const [route, options] of calls) {
      const res = await call(route, { ...options, token: buyer.token });
      expect(res.statusCode, route.path).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', error: m.setUpStorefront });
    }
    const upload = await imageUpload(buyer.token, id, await png());
    expect(upload.statusCode).toBe(403);
    const unsigned = await call(r.vendorProducts, {});
    expect(unsigned.statusCode).toBe(401);
  });

  it("answers 404 for another vendor's product on every route, changing nothing", async () => {
    const owner = await newVendor();
    const stranger = await newVendor();
    const product = await create(owner.token);
    const calls: Array<[RouteDef, CallOptions]> = [
      [r.vendorProduct, { params: { id: product.id } }],
      [r.updateVendorProduct, { params: { id: product.id }, body: draft({ title: 'Mine now' }) }],
      [r.publishVendorProduct, { params: { id: product.id } }],
      [r.unpublishVendorProduct, { params: { id: product.id } }],
      [r.setVendorProductImages, { params: { id: product.id }, body: { images: [] } }],
    ];
    for (const [route, options] of calls) {
      const res = await call(route, { ...options, token: stranger.token });
      expect(res.statusCode, route.path).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await imageUpload(stranger.token, product.id, await png())).statusCode).toBe(404);
    // Nor can a stranger require it, nor does it show in their list.
    const borrowed = await call(r.createVendorProduct, {
      token: stranger.token,
      body: draft({ prerequisiteIds: [product.id] }),
    });
    expect(borrowed.statusCode).toBe(400);
    expect(borrowed.json().fields.prerequisiteIds).toBe(m.prerequisiteUnknown);
    const list = await call(r.vendorProducts, { token: stranger.token });
    expect(list.json().products).toEqual([]);
    const mine = await call(r.vendorProduct, { token: owner.token, params: { id: product.id } });
    expect(mine.json().product).toMatchObject({ title: product.title, status: 'draft' });
  });
});

describe('the workspace pages', () => {
  it('serves the list and both editor addresses, kept out of search engines', async () => {
    for (const url of ['/vendor/products', '/vendor/products/new', '/vendor/products/prd_x']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toMatch(/<meta name="robots" content="noindex"/);
    }
  });
});

describe('the product list', () => {
  it('pages most recently edited first, filters by status and kind, drafts included', async () => {
    const v = await newVendor();
    const a = await create(v.token, draft({ kind: 'course' }));
    const b = await create(v.token);
    const c = await create(v.token, draft({ plans: [] }));
    expect((await publish(v.token, b.id)).statusCode).toBe(200);
    const first = await call(r.vendorProducts, { token: v.token, query: { limit: '2' } });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.products.map((p: { id: string }) => p.id)).toEqual([b.id, c.id]);
    expect(page1.products[0]).toMatchObject({
      status: 'published',
      price: { amount: 4900, billing: 'one_time' },
      plansCount: 1,
    });
    expect(page1.products[1]).toMatchObject({ status: 'draft', price: null, plansCount: 0 });
    const page2 = await call(r.vendorProducts, {
      token: v.token,
      query: { limit: '2', cursor: page1.nextCursor },
    });
    expect(page2.json()).toMatchObject({ products: [{ id: a.id }], nextCursor: null });
    const drafts = await call(r.vendorProducts, { token: v.token, query: { status: 'draft' } });
    expect(drafts.json().products.map((p: { id: string }) => p.id)).toEqual([c.id, a.id]);
    const courses = await call(r.vendorProducts, { token: v.token, query: { kind: 'course' } });
    expect(courses.json().products.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const bad = await call(r.vendorProducts, { token: v.token, query: { cursor: 'nope' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('publishing, edits and unpublishing reach the public side at once', () => {
  it('create → publish → found by search, on its page, storefront and sitemap', async () => {
    const v = await newVendor();
    const word1 = searchWord();
    const product = await create(
      v.token,
      draft({ title: `Aurora ${word1} scanner`, kind: 'scanner' }),
    );
    expect(product.status).toBe('draft');
    // A draft is nowhere public.
    expect(await searchIds(word1)).toEqual([]);
    expect(
      (await t.call(catalogRoutes.productDetails, { query: { id: product.id } })).statusCode,
    ).toBe(404);
    expect((await page(product.publicPath)).statusCode).toBe(404);

    const res = await publish(v.token, product.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product).toMatchObject({ status: 'published' });
    expect(res.json().product.publishedAt).not.toBeNull();
    expect(await searchIds(word1)).toEqual([product.id]);
    const details = await t.call(catalogRoutes.productDetails, { query: { id: product.id } });
    expect(details.json().product).toMatchObject({
      title: `Aurora ${word1} scanner`,
      kind: 'scanner',
    });
    const html = await page(product.publicPath);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain(`Aurora ${word1} scanner`);
    expect(await sitemap()).toContain(product.publicPath);
    const storefront = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: v.vendorUrl },
    });
    expect(storefront.json().products.map((p: { id: string }) => p.id)).toEqual([product.id]);
    // Publishing again changes nothing.
    expect((await publish(v.token, product.id)).json().product.publishedAt).toBe(
      res.json().product.publishedAt,
    );
  });

  it("a description's Markdown reaches the page as sanitised HTML (issue 27)", async () => {
    const v = await newVendor();
    const description =
      '## Setup\nAdd it to a chart.\n\n- **Fast**\n- [docs](https://example.com/docs)\n\n' +
      '[click](javascript:alert(1)) <script>alert(1)</script> <img src=x onerror="alert(2)">';
    const product = await create(v.token, draft({ description }));
    expect((await publish(v.token, product.id)).statusCode).toBe(200);
    const details = await t.call(catalogRoutes.productDetails, { query: { id: product.id } });
    const html = details.json().product.descriptionHtml as string;
    // The heading on the line before its text is a heading (the old parser printed "##").
    expect(html).toContain('<h2>Setup</h2>\n<p>Add it to a chart.</p>');
    expect(html).toContain('<li><strong>Fast</strong></li>');
    expect(html).toContain(
      '<a href="https://example.com/docs" rel="nofollow ugc noopener noreferrer" target="_blank">docs</a>',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The server-rendered page carries that HTML, and no live markup from the text anywhere.
    const res = await page(product.publicPath);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h2>Setup</h2>');
    expect(res.body).not.toMatch(/<script>alert|<img src=x|href="javascript/i);
  });

  it('an edited title is found by its new word, not its old one, and cached pages follow', async () => {
    const v = await newVendor();
    const [oldWord, newWord, bodyWord] = [searchWord(), searchWord(), searchWord()];
    const product = await create(v.token, draft({ title: `Falcon ${oldWord} levels` }));
    await publish(v.token, product.id);
    // Warm both caches with the old version.
    expect(await searchIds(oldWord)).toEqual([product.id]);
    expect(await searchIds(newWord)).toEqual([]);
    const before = await page(product.publicPath);
    expect(before.body).toContain(`Falcon ${oldWord} levels`);
    expect((await page(product.publicPath)).headers.age).toBeDefined();

    const input = draft({ title: `Falcon ${newWord} levels` });
    const saved = await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: product.id },
      body: input,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const edited = saved.json().product;
    expect(await searchIds(newWord)).toEqual([product.id]);
    expect(await searchIds(oldWord)).toEqual([]);
    // The spelling vocabulary follows: the old word is gone, the new one is there.
    const terms = await t.database.db.execute<{ term: string }>(
      sql`select term from search_terms where term in (${oldWord}, ${newWord})`,
    );
    expect(terms.rows.map((x) => x.term)).toEqual([newWord]);
    // The old address moves to the new one (not the cached old page), which shows the new title.
    const moved = await page(product.publicPath);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toContain(edited.publicPath);
    const after = await page(edited.publicPath);
    expect(after.body).toContain(`Falcon ${newWord} levels`);
    expect(await sitemap()).toContain(edited.publicPath);

    // Same address, cached, then a description edit: the page shows it at once.
    expect((await page(edited.publicPath)).headers.age).toBeDefined();
    await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: product.id },
      body: { ...input, description: `Now with ${bodyWord} zones.` },
    });
    expect((await page(edited.publicPath)).body).toContain(`Now with ${bodyWord} zones.`);
    expect(await searchIds(bodyWord)).toEqual([product.id]);
  });

  it('unpublished: gone from search, storefront and sitemap, page 404; buyers keep their purchase', async () => {
    const v = await newVendor();
    const w = searchWord();
    const product = await create(v.token, draft({ title: `Harbor ${w} signals` }));
    await publish(v.token, product.id);
    const buyer = await buyPaidProduct(t, v.vendorUrl, product.plans[0]!.priceId);
    expect(await searchIds(w)).toEqual([product.id]);
    expect((await page(product.publicPath)).statusCode).toBe(200);

    const res = await call(r.unpublishVendorProduct, {
      token: v.token,
      params: { id: product.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().product.status).toBe('unpublished');
    expect(await searchIds(w)).toEqual([]);
    expect(await sitemap()).not.toContain(product.id);
    expect((await page(product.publicPath)).statusCode).toBe(404);
    expect(
      (await t.call(catalogRoutes.productDetails, { query: { id: product.id } })).statusCode,
    ).toBe(404);
    const storefront = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: v.vendorUrl },
    });
    expect(storefront.json().products).toEqual([]);
    const purchases = await t.call(ordersRoutes.purchaseList, { token: buyer.token });
    expect(purchases.json().purchases).toMatchObject([
      { id: buyer.purchaseId, item: { id: product.id } },
    ]);
    // Publishing it again brings it back.
    expect((await publish(v.token, product.id)).json().product.status).toBe('published');
    expect(await searchIds(w)).toEqual([product.id]);
  });

  it('will not publish without a title, a summary and a plan, and says what is missing', async () => {
    const v = await newVendor();
    const product = await create(v.token, draft({ title: 'Draft', summary: '', plans: [] }));
    expect(product.missingToPublish).toEqual({
      summary: m.summaryRequired,
      plans: m.planRequired,
    });
    const res = await publish(v.token, product.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'business_rule',
      error: 'Add a summary and at least one plan before publishing.',
      fields: { summary: m.summaryRequired, plans: m.planRequired },
    });
    // A published product cannot lose them by an edit either.
    const ok = await create(v.token);
    await publish(v.token, ok.id);
    const stripped = await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: ok.id },
      body: draft({ plans: [] }),
    });
    expect(stripped.statusCode).toBe(422);
    expect(stripped.json().fields).toEqual({ plans: m.planRequired });
    expect(await activePrices(ok.id)).toHaveLength(1);
  });
});

describe('several nodes', () => {
  it("another node's cached search results follow an edit within a poll", async () => {
    const other = await startTestApp({}, { databaseUrl: t.config.DATABASE_URL! });
    try {
      const v = await newVendor();
      const [oldWord, newWord] = [searchWord(), searchWord()];
      const product = await create(v.token, draft({ title: `Beacon ${oldWord} bands` }));
      await publish(v.token, product.id);
      await checkCatalogChanges(other.deps);
      const searchThere = async (q: string) =>
        (await other.call(catalogRoutes.search, { query: { q } }))
          .json()
          .products.map((p: { id: string }) => p.id) as string[];
      // The other node caches both searches before the edit.
      expect(await searchThere(oldWord)).toEqual([product.id]);
      expect(await searchThere(newWord)).toEqual([]);
      await call(r.updateVendorProduct, {
        token: v.token,
        params: { id: product.id },
        body: draft({ title: `Beacon ${newWord} bands` }),
      });
      await checkCatalogChanges(other.deps);
      expect(await searchThere(newWord)).toEqual([product.id]);
      expect(await searchThere(oldWord)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('plans and prices', () => {
  it('a changed price becomes a new plan; the old one is archived, so a purchase keeps what it paid', async () => {
    const v = await newVendor();
    const product = await create(
      v.token,
      draft({
        plans: [
          { billing: 'one_time', amount: 4900, currency: 'usd' },
          { billing: 'month', amount: 1900, currency: 'usd', trialDays: 7 },
        ],
      }),
    );
    await publish(v.token, product.id);
    const [oneTime, monthly] = product.plans;
    const buyer = await buyPaidProduct(t, v.vendorUrl, oneTime!.priceId);

    const res = await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: product.id },
      body: draft({
        title: product.title,
        plans: [
          {
            priceId: monthly!.priceId,
            billing: 'month',
            amount: 1900,
            currency: 'usd',
            trialDays: 7,
          },
          { priceId: oneTime!.priceId, billing: 'one_time', amount: 5900, currency: 'usd' },
          { billing: 'year', amount: 19000, currency: 'usd', trialDays: 14 },
        ],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const plans = res.json().product.plans;
    expect(plans.map((p: { amount: number }) => p.amount)).toEqual([1900, 5900, 19000]);
    expect(plans[0].priceId).toBe(monthly!.priceId);
    expect(plans[1].priceId).not.toBe(oneTime!.priceId);
    const old = await t.database.db.execute<{ amount: number; is_active: boolean }>(
      sql`select amount, is_active from prices where id = ${oneTime!.priceId}`,
    );
    expect(old.rows[0]).toEqual({ amount: 4900, is_active: false });
    const purchase = await t.call(ordersRoutes.purchaseDetails, {
      token: buyer.token,
      params: { id: buyer.purchaseId },
    });
    expect(purchase.json().purchase).toMatchObject({
      item: { priceId: oneTime!.priceId },
      total: { amount: 4900 },
    });
    // The page lists the plans now on sale, the default (first) one on its card.
    const details = (
      await t.call(catalogRoutes.productDetails, { query: { id: product.id } })
    ).json().product;
    expect(details.prices.map((p: { amount: number }) => p.amount)).toEqual([1900, 5900, 19000]);
    expect(details.price.amount).toBe(1900);
  });

  it('two saves at once leave exactly one of their plan sets, never a mix', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    await publish(v.token, product.id);
    const setA = [
      { billing: 'one_time' as const, amount: 1111, currency: 'usd' as const },
      { billing: 'month' as const, amount: 222, currency: 'usd' as const },
    ];
    const setB = [{ billing: 'year' as const, amount: 33333, currency: 'usd' as const }];
    const results = await Promise.all(
      [setA, setB, setA, setB].map((plans) =>
        call(r.updateVendorProduct, {
          token: v.token,
          params: { id: product.id },
          body: draft({ title: product.title, plans }),
        }),
      ),
    );
    expect(results.map((x) => x.statusCode)).toEqual([200, 200, 200, 200]);
    const amounts = (await activePrices(product.id)).map((p) => p.amount);
    expect([[1111, 222], [33333]]).toContainEqual(amounts);
    const row = await t.database.db.execute<{ default_ok: boolean; sort_ok: boolean }>(
      sql`select pr.is_active and pr.product_id = p.id as default_ok, p.sort_amount = pr.amount as sort_ok
          from products p join prices pr on pr.id = p.default_price_id where p.id = ${product.id}`,
    );
    expect(row.rows[0]).toEqual({ default_ok: true, sort_ok: true });
  });

  it('two tabs: a save from an older copy is refused (409) and changes nothing; without a base it replaces', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    const base = product.updatedAt;
    const save = (title: string, baseUpdatedAt?: string) =>
      call(r.updateVendorProduct, {
        token: v.token,
        params: { id: product.id },
        body: { ...draft({ title }), ...(baseUpdatedAt ? { baseUpdatedAt } : {}) },
      });
    // Both tabs loaded `base`; two at once: exactly one lands.
    const [a, b] = await Promise.all([save('Tab A title', base), save('Tab B title', base)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const lost = a.statusCode === 409 ? a : b;
    const won = a.statusCode === 200 ? a : b;
    expect(lost.json()).toEqual({ error: m.editConflict, code: 'conflict' });
    const stored = await call(r.vendorProduct, { token: v.token, params: { id: product.id } });
    expect(stored.json().product.title).toBe(won.json().product.title);
    // The winner's copy saves again from what it got back.
    const next = await save('Tab A again', won.json().product.updatedAt);
    expect(next.statusCode, next.body).toBe(200);
    // The loser chose to replace it.
    const replaced = await save('Tab B replaces');
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().product.title).toBe('Tab B replaces');
    const bad = await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: product.id },
      body: { ...draft(), baseUpdatedAt: 'yesterday' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.baseUpdatedAt).toBe(m.baseUpdatedAt);
  });

  it('saves of one product take turns on its row: of four from one loaded copy, one lands', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    const titles = ['First tab', 'Second tab', 'Third tab', 'Fourth tab'];
    const results = await Promise.all(
      titles.map((title) =>
        call(r.updateVendorProduct, {
          token: v.token,
          params: { id: product.id },
          body: { ...draft({ title }), baseUpdatedAt: product.updatedAt },
        }),
      ),
    );
    expect(results.map((x) => x.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const won = results.find((x) => x.statusCode === 200)!.json().product;
    const stored = (
      await call(r.vendorProduct, { token: v.token, params: { id: product.id } })
    ).json().product;
    expect(stored.title).toBe(won.title);
    expect(stored.updatedAt).toBe(won.updatedAt);
  });
});

describe('bad input', () => {
  it('answers 400 with field messages and changes nothing', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 'Bad\u0000title' }, 'title', 'Text may not contain NUL (\\u0000) characters.'],
      [{ title: 'Bad\u0007bell' }, 'title', m.unreadable],
      [{ summary: 'x'.repeat(301) }, 'summary', m.summaryMax],
      [{ description: 'y'.repeat(20_001) }, 'description', m.descriptionMax],
      [{ kind: 'spaceship' }, 'kind', m.kind],
      [
        { plans: [{ billing: 'one_time', amount: -100, currency: 'usd' }] },
        'plans.0.amount',
        m.amount,
      ],
      [
        { plans: [{ billing: 'month', amount: 12.5, currency: 'usd' }] },
        'plans.0.amount',
        m.amount,
      ],
      [
        { plans: [{ billing: 'one_time', amount: 900, trialDays: 7 }] },
        'plans.0.trialDays',
        m.trialOneTime,
      ],
      [{ plans: [{ billing: 'fortnight', amount: 900 }] }, 'plans.0.billing', m.billing],
      [{ tags: ['<script>'] }, 'tags.0', m.tag],
      [{ platforms: ['amiga'] }, 'platforms.0', m.platform],
      [{ prerequisiteIds: [product.id] }, 'prerequisiteIds', m.prerequisiteSelf],
    ];
    for (const [change, field, message] of cases) {
      const res = await call(r.updateVendorProduct, {
        token: v.token,
        params: { id: product.id },
        body: { ...draft(), ...change },
      });
      expect(res.statusCode, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(res.json().fields?.[field], field).toBe(message);
    }
    const after = await call(r.vendorProduct, { token: v.token, params: { id: product.id } });
    expect(after.json().product).toMatchObject({
      title: product.title,
      plans: [{ priceId: product.plans[0]!.priceId, amount: 4900 }],
    });
    // A prerequisite that requires this product back would make both unbuyable.
    const needsIt = await create(v.token, draft({ prerequisiteIds: [product.id] }));
    const cycle = await call(r.updateVendorProduct, {
      token: v.token,
      params: { id: product.id },
      body: draft({ title: product.title, prerequisiteIds: [needsIt.id] }),
    });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().fields.prerequisiteIds).toBe(m.prerequisiteCycle);
    const created = await call(r.createVendorProduct, {
      token: v.token,
      body: { ...draft(), kind: 'spaceship' },
    });
    expect(created.statusCode).toBe(400);
    const list = await call(r.vendorProducts, { token: v.token });
    expect(list.json().products).toHaveLength(2);
  });
});

describe('pictures from the editor', () => {
  it('a draft takes pictures; wrong types, oversize files and path tricks are refused', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    const ok = await imageUpload(v.token, product.id, await png(), '../../../etc/passwd.png');
    expect(ok.statusCode, ok.body).toBe(200);
    const images: string[] = ok.json().product.images;
    expect(images).toHaveLength(1);
    // The stored name is ours: nothing of the client's file name reaches the path.
    expect(images[0]).toMatch(new RegExp(`/files/public/products/${product.id}/`));
    expect(images[0]).not.toMatch(/passwd|\.\./);
    expect(
      (await t.app.inject({ method: 'GET', url: images[0]!.replace(/^https?:\/\/[^/]+/, '') }))
        .statusCode,
    ).toBe(200);

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const wrongType = await imageUpload(v.token, product.id, svg, 'x.png');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().fields.file).toBe(usersMessages.imageType);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expect((await imageUpload(v.token, product.id, gif)).statusCode).toBe(415);
    const huge = Buffer.concat([await png(), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const big = await imageUpload(v.token, product.id, huge);
    expect(big.statusCode).toBe(413);
    const read = await call(r.vendorProduct, { token: v.token, params: { id: product.id } });
    expect(read.json().product.images).toEqual(images);
    expect(images).toHaveLength(1);
    // A second picture, made the cover; then the first removed: its files go too.
    const second = await imageUpload(v.token, product.id, await png(80, 60));
    const both: string[] = second.json().product.images;
    expect(both).toHaveLength(2);
    const reordered = await call(r.setVendorProductImages, {
      token: v.token,
      params: { id: product.id },
      body: { images: [both[1], both[0]] },
    });
    expect(reordered.json().product.images).toEqual([both[1], both[0]]);
    const removed = await call(r.setVendorProductImages, {
      token: v.token,
      params: { id: product.id },
      body: { images: [both[1]] },
    });
    expect(removed.json().product.images).toEqual([both[1]]);
    const gone = await t.app.inject({
      method: 'GET',
      url: both[0]!.replace(/^https?:\/\/[^/]+/, ''),
    });
    expect(gone.statusCode).toBe(404);
    const foreign = await call(r.setVendorProductImages, {
      token: v.token,
      params: { id: product.id },
      body: { images: ['/files/public/products/elsewhere/x.jpg'] },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields.images).toBe(m.imageUnknown);
    // A product id that tries to leave its folder is just an unknown product.
    const tricky = await imageUpload(v.token, '..%2F..%2Fusers', await png());
    expect(tricky.statusCode).toBe(404);
  });
});

describe('kinds', () => {
  it('creates every product kind the catalogue has', async () => {
    const v = await newVendor();
    for (const kind of ['indicator', 'scanner', 'alert', 'community', 'course', 'app'] as const) {
      const p = await create(v.token, draft({ kind }));
      const read = await call(r.vendorProduct, { token: v.token, params: { id: p.id } });
      expect(read.json().product.kind).toBe(kind);
    }
  });

  it('an existing seeded-style product (created elsewhere) is editable by its vendor', async () => {
    const v = await newVendor();
    const seeded = await createProduct(t, v.id, { extraPrices: [900], trialDays: 3 });
    const read = await call(r.vendorProduct, { token: v.token, params: { id: seeded.id } });
    expect(read.json().product).toMatchObject({
      status: 'published',
      plans: [
        { priceId: seeded.priceId, billing: 'one_time', amount: 1000 },
        { priceId: seeded.extraPriceIds[0], billing: 'month', amount: 900, trialDays: 3 },
      ],
    });
  });
});

describe('times PostgreSQL refuses (issue 26)', () => {
  it('answers 400 naming the field for baseUpdatedAt and forged list cursors, and changes nothing', async () => {
    const v = await newVendor();
    const product = await create(v.token);
    for (const at of UNSTORABLE_TIMES.filter((x) => x.includes('T')))
      expectRefused(
        await call(r.updateVendorProduct, {
          token: v.token,
          params: { id: product.id },
          body: { ...draft({ title: 'Never saved' }), baseUpdatedAt: at },
        }),
        'baseUpdatedAt',
        at,
      );
    const [kept] = (
      await t.database.db.execute(sql`select title from products where id = ${product.id}`)
    ).rows;
    expect(kept).toEqual({ title: product.title });
    await expectCursorsRefused((cursor) =>
      call(r.vendorProducts, { token: v.token, query: { cursor } }),
    );
  });
});
