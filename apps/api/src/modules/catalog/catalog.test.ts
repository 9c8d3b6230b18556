import { authRoutes, catalogMessages, catalogRoutes, type ProductCard } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBundle,
  createProduct,
  createVendor,
  grantOwnership,
  requirePrerequisite,
} from '../../../test/factories/catalog.ts';
import { createPlatformPlans } from '../../../test/factories/membership.ts';
import { createUser } from '../../../test/factories/users.ts';
import { expectCursorsRefused } from '../../../test/cursors.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';

const t = useTestApp();
let vendor: Awaited<ReturnType<typeof createVendor>>;
let rsi: Awaited<ReturnType<typeof createProduct>>;
let addOn: Awaited<ReturnType<typeof createProduct>>;
let discord: Awaited<ReturnType<typeof createProduct>>;
let retired: Awaited<ReturnType<typeof createProduct>>;
let bundle: Awaited<ReturnType<typeof createBundle>>;
let buyer: Awaited<ReturnType<typeof createUser>>;
let buyerToken: string;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge' });
  rsi = await createProduct(t, vendor.id, {
    title: 'RSI Divergence Pro',
    tags: ['rsi', 'momentum'],
    amount: 2900,
    extraPrices: [900],
  });
  addOn = await createProduct(t, vendor.id, {
    title: 'Divergence Alerts Pack',
    tags: ['alerts'],
    amount: 4900,
  });
  discord = await createProduct(t, vendor.id, {
    title: 'Momentum Traders Room',
    kind: 'community',
    tags: ['rsi', 'discord'],
    amount: 4900,
    platforms: ['other'],
  });
  retired = await createProduct(t, vendor.id, { title: 'Retired RSI Tool', isActive: false });
  for (let i = 0; i < 5; i++)
    await createProduct(t, vendor.id, {
      title: `Volume Tool ${i}`,
      description: 'Mentions rsi in passing',
      amount: 1000 + i * 1000,
    });
  bundle = await createBundle(t, vendor.id, [rsi.id, addOn.id], 6900, 'Momentum Bundle');
  await requirePrerequisite(t, addOn.id, rsi.id);
  buyer = await createUser(t);
  buyerToken = (
    await t.call(authRoutes.login, { body: { email: buyer.email, password: buyer.password } })
  ).json().token;
});

const titles = (products: ProductCard[]) => products.map((p) => p.title);

describe('vendor profile', () => {
  it('returns seller details, case-insensitively, and 404 for unknown vendors', async () => {
    const res = await t.call(catalogRoutes.vendorProfile, { query: { vendorUrl: 'Alpha-Edge' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().vendor).toMatchObject({
      vendorUrl: 'alpha-edge',
      displayName: 'Alpha Edge',
      productCount: 8,
      verified: false,
    });
    const missing = await t.call(catalogRoutes.vendorProfile, {
      query: { vendorUrl: 'nobody-here' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: catalogMessages.vendorNotFound, code: 'not_found' });
    expect(
      (await t.call(catalogRoutes.vendorProfile, { query: { vendorUrl: '../etc' } })).statusCode,
    ).toBe(400);
  });
});

describe('seller product list', () => {
  it('loads active products and bundles together, hiding inactive ones', async () => {
    const res = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: 'alpha-edge', isActive: 'true' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.products).toHaveLength(8);
    expect(titles(body.products)).not.toContain(retired.title);
    expect(body.bundles).toHaveLength(1);
    expect(body.bundles[0]).toMatchObject({
      title: 'Momentum Bundle',
      valueAmount: 7800,
      price: { amount: 6900, currency: 'usd' },
      purchased: false,
    });
    expect(body.products.every((p: ProductCard) => p.purchased === false)).toBe(true);
  });

  it('marks what the signed-in buyer owns, directly or through a bundle', async () => {
    const owner = await createUser(t);
    const token = (
      await t.call(authRoutes.login, { body: { email: owner.email, password: owner.password } })
    ).json().token;
    await grantOwnership(t, owner.id, { bundleId: bundle.id });
    await grantOwnership(t, owner.id, { productId: discord.id });
    const body = (
      await t.call(catalogRoutes.sellerProductList, {
        token,
        query: { vendorUrl: 'alpha-edge', isActive: 'true' },
      })
    ).json();
    const purchased = body.products
      .filter((p: ProductCard) => p.purchased)
      .map((p: ProductCard) => p.title)
      .sort();
    expect(purchased).toEqual([
      'Divergence Alerts Pack',
      'Momentum Traders Room',
      'RSI Divergence Pro',
    ]);
    expect(body.bundles[0].purchased).toBe(true);
    // Someone else still sees nothing purchased.
    const other = (
      await t.call(catalogRoutes.sellerProductList, {
        token: buyerToken,
        query: { vendorUrl: 'alpha-edge', isActive: 'true' },
      })
    ).json();
    expect(other.products.some((p: ProductCard) => p.purchased)).toBe(false);
  });

  it('shows inactive listings only to the vendor and 404s unknown vendors', async () => {
    expect(
      (
        await t.call(catalogRoutes.sellerProductList, {
          query: { vendorUrl: 'alpha-edge', isActive: 'false' },
        })
      ).statusCode,
    ).toBe(403);
    const owner = await t.deps.tokens.sign({
      sub: vendor.userId,
      email: 'v@example.com',
      roles: ['vendor'],
    });
    const own = await t.call(catalogRoutes.sellerProductList, {
      token: owner,
      query: { vendorUrl: 'alpha-edge', isActive: 'false' },
    });
    expect(own.statusCode).toBe(200);
    expect(titles(own.json().products)).toEqual([retired.title]);
    expect(
      (
        await t.call(catalogRoutes.sellerProductList, {
          query: { vendorUrl: 'ghost-vendor', isActive: 'true' },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('product details', () => {
  it('returns prices, vendor, bundles and prerequisites', async () => {
    const res = await t.call(catalogRoutes.productDetails, { query: { id: addOn.id } });
    expect(res.statusCode).toBe(200);
    const { product } = res.json();
    expect(product).toMatchObject({
      id: addOn.id,
      priceId: addOn.priceId,
      vendor: { vendorUrl: 'alpha-edge' },
      bundles: [{ id: bundle.id, title: 'Momentum Bundle' }],
      prerequisites: [{ id: rsi.id, title: 'RSI Divergence Pro', purchased: false }],
      rating: { average: 0, count: 0 },
    });
    const rsiDetails = (
      await t.call(catalogRoutes.productDetails, { query: { id: rsi.id } })
    ).json().product;
    expect(rsiDetails.prices.map((p: { amount: number }) => p.amount)).toEqual([2900, 900]);
  });

  it('404s unknown and inactive products', async () => {
    for (const id of ['prd_nope', retired.id]) {
      const res = await t.call(catalogRoutes.productDetails, { query: { id } });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });
});

describe('search', () => {
  const search = (query: Record<string, string>, token?: string) =>
    t.call(catalogRoutes.search, { query, ...(token ? { token } : {}) });

  it('ranks an exact title match first', async () => {
    const body = (await search({ q: 'RSI Divergence Pro' })).json();
    expect(body.products[0].title).toBe('RSI Divergence Pro');
  });

  it('weights title over tags over description', async () => {
    const body = (await search({ q: 'rsi' })).json();
    const order = titles(body.products);
    expect(order[0]).toBe('RSI Divergence Pro');
    expect(order.indexOf('Momentum Traders Room')).toBeLessThan(order.indexOf('Volume Tool 0'));
    expect(order).not.toContain(retired.title);
  });

  it('finds through typos and prefixes', async () => {
    const typo = (await search({ q: 'rsi divergnce' })).json();
    expect(typo.didYouMean).toBe('rsi divergence');
    expect(titles(typo.products)).toContain('RSI Divergence Pro');
    expect((await search({ q: 'divergence' })).json().didYouMean).toBeNull();
    expect(titles((await search({ q: 'diverg' })).json().products)).toEqual(
      expect.arrayContaining(['RSI Divergence Pro', 'Divergence Alerts Pack']),
    );
  });

  it('filters by category, kind, platform and price', async () => {
    const discordOnly = (await search({ q: '', category: 'discord' })).json();
    expect(titles(discordOnly.products)).toEqual(['Momentum Traders Room']);
    expect(discordOnly.bundles).toEqual([]);
    expect(titles((await search({ q: 'rsi', kind: 'community' })).json().products)).toEqual([
      'Momentum Traders Room',
    ]);
    expect(titles((await search({ platform: 'other' })).json().products)).toEqual([
      'Momentum Traders Room',
    ]);
    const priced = (await search({ minPrice: '2000', maxPrice: '3000' })).json()
      .products as ProductCard[];
    expect(priced.length).toBeGreaterThan(0);
    expect(priced.every((p) => p.price.amount >= 2000 && p.price.amount <= 3000)).toBe(true);
    expect(titles((await search({ category: 'bundles' })).json().bundles)).toEqual([
      'Momentum Bundle',
    ]);
  });

  it('lists matching bundles beside products on the first page, within the price range', async () => {
    const bundleTitles = async (query: Record<string, string>) =>
      titles((await search(query)).json().bundles);
    expect(await bundleTitles({ q: 'momentum' })).toEqual(['Momentum Bundle']);
    expect(await bundleTitles({ q: 'momentum', maxPrice: '6899' })).toEqual([]);
    expect(await bundleTitles({ q: 'momentum', minPrice: '6900' })).toEqual(['Momentum Bundle']);
    expect(await bundleTitles({ q: 'divergence' })).toEqual([]);
    // A product-only filter or a later page lists products alone.
    expect(await bundleTitles({ q: 'momentum', kind: 'indicator' })).toEqual([]);
  });

  it('sorts and pages with a cursor', async () => {
    const asc = (await search({ sort: 'price_asc' })).json().products as ProductCard[];
    const amounts = asc.map((p) => p.price.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const first = (await search({ limit: '3', sort: 'price_asc' })).json();
    expect(first.products).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await search({ limit: '3', sort: 'price_asc', cursor: first.nextCursor })
    ).json();
    expect(second.products.map((p: ProductCard) => p.id)).not.toContain(first.products[0].id);
    expect(second.products[0].price.amount).toBeGreaterThanOrEqual(first.products[2].price.amount);
  });

  it('marks purchased products for the signed-in buyer', async () => {
    await grantOwnership(t, buyer.id, { productId: rsi.id });
    const mine = (await search({ q: 'RSI Divergence Pro' }, buyerToken)).json().products[0];
    expect(mine).toMatchObject({ id: rsi.id, purchased: true });
    expect((await search({ q: 'RSI Divergence Pro' })).json().products[0].purchased).toBe(false);
  });

  it('bounds its input', async () => {
    expect((await search({ q: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await search({ limit: '51' })).statusCode).toBe(400);
    expect((await search({ category: 'weapons' })).statusCode).toBe(400);
    expect((await search({ cursor: 'garbage!' })).statusCode).toBe(400);
    // A cursor made by hand (the old unsigned `mode:offset`) is refused too (issue 26).
    await expectCursorsRefused(
      (cursor) => search({ cursor }),
      [Buffer.from('text:20').toString('base64url')],
    );
    // Query syntax characters are just text, never a tsquery error.
    for (const q of ["rsi & | ! ( ) :* '", '%_\\', '   '])
      expect((await search({ q })).statusCode).toBe(200);
  });

  it('reuses cached result ids but never shows a product deactivated since', async () => {
    const gap = await createProduct(t, vendor.id, { title: 'Ephemeral Gap Scanner' });
    expect(titles((await search({ q: 'ephemeral' })).json().products)).toEqual([
      'Ephemeral Gap Scanner',
    ]);
    await t.database.db.execute(sql`update products set is_active = false where id = ${gap.id}`);
    expect((await search({ q: 'ephemeral' })).json().products).toEqual([]);
  });
});

describe('validate prerequisites', () => {
  it('lists what is missing until the buyer owns it', async () => {
    const user = await createUser(t);
    const token = (
      await t.call(authRoutes.login, { body: { email: user.email, password: user.password } })
    ).json().token;
    const before = await t.call(catalogRoutes.validatePrerequisites, {
      token,
      body: { productId: addOn.id },
    });
    expect(before.json()).toEqual({
      productId: addOn.id,
      satisfied: false,
      missing: [{ id: rsi.id, slug: expect.any(String), title: 'RSI Divergence Pro' }],
    });
    await grantOwnership(t, user.id, { productId: rsi.id });
    const after = await t.call(catalogRoutes.validatePrerequisites, {
      token,
      body: { productId: addOn.id },
    });
    expect(after.json()).toMatchObject({ satisfied: true, missing: [] });
  });

  it('needs a bearer token and a real product', async () => {
    expect(
      (await t.call(catalogRoutes.validatePrerequisites, { body: { productId: addOn.id } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await t.call(catalogRoutes.validatePrerequisites, {
          token: buyerToken,
          body: { productId: 'prd_nope' },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('bundle details and top vendors', () => {
  it('returns a bundle with its products, and 404 for unknown ones', async () => {
    const res = await t.call(catalogRoutes.bundleDetails, { query: { id: bundle.id } });
    expect(res.statusCode).toBe(200);
    const body = res.json().bundle;
    expect(body).toMatchObject({ id: bundle.id, title: 'Momentum Bundle', valueAmount: 7800 });
    expect(titles(body.products).sort()).toEqual(['Divergence Alerts Pack', 'RSI Divergence Pro']);
    expect(
      (await t.call(catalogRoutes.bundleDetails, { query: { id: 'bnd_nope' } })).statusCode,
    ).toBe(404);
  });

  it('lists vendors with active products', async () => {
    const res = await t.call(catalogRoutes.topVendors, { query: { limit: '5' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().vendors.map((v: { vendorUrl: string }) => v.vendorUrl)).toContain(
      'alpha-edge',
    );
    expect((await t.call(catalogRoutes.topVendors, { query: { limit: '100' } })).statusCode).toBe(
      400,
    );
  });
});

describe('robots and sitemap', () => {
  it('publishes robots.txt and a sitemap of vendors and active products only', async () => {
    const robots = await t.app.inject('/robots.txt');
    expect(robots.body).toContain('Sitemap: ');
    expect(robots.body).toContain('Disallow: /account');
    const index = await t.app.inject('/sitemap.xml');
    expect(index.headers['content-type']).toContain('application/xml');
    expect(index.body).toContain('/sitemaps/products-1.xml');
    const products = (await t.app.inject('/sitemaps/products-1.xml')).body;
    expect(products).toContain(`/p/${rsi.id}/`);
    expect(products).not.toContain(retired.id);
    expect((await t.app.inject('/sitemaps/vendors.xml')).body).toContain('/v/alpha-edge');
    // Bundles are pages of their own (issue 14): active ones are listed, retired ones are not.
    expect(index.body).toContain('/sitemaps/bundles.xml');
    const shelved = await createBundle(t, vendor.id, [rsi.id], 100, 'Shelved Bundle');
    await t.database.db.execute(sql`update bundles set is_active = false where id = ${shelved.id}`);
    const bundles = (await t.app.inject('/sitemaps/bundles.xml')).body;
    expect(bundles).toContain(`/b/${bundle.id}/momentum-bundle</loc>`);
    expect(bundles).not.toContain(shelved.id);
    // Category landing pages are the indexable search pages; filtered results are not listed.
    const pages = (await t.app.inject('/sitemaps/pages.xml')).body;
    expect(pages).toContain('/search?category=');
    expect(pages).not.toMatch(/search\?q=/);
    expect((await t.app.inject('/sitemaps/products-99.xml')).statusCode).toBe(404);
    // Page 0 once made a negative OFFSET: a 500.
    for (const name of ['products-0.xml', 'products-01.xml'])
      expect((await t.app.inject(`/sitemaps/${name}`)).statusCode, name).toBe(404);
    expect((await t.app.inject('/sitemaps/other.xml')).statusCode).toBe(404);
  });
  it('lists the platform plans by their own pages, not their /p/ addresses that redirect (issue 27)', async () => {
    const planProducts = await createPlatformPlans(t);
    const products = (await t.app.inject('/sitemaps/products-1.xml')).body;
    for (const { id } of Object.values(planProducts)) expect(products).not.toContain(`/p/${id}/`);
    expect(products).toContain(`/p/${rsi.id}/`);
    const pages = (await t.app.inject('/sitemaps/pages.xml')).body;
    expect(pages).toContain('/premium</loc>');
    expect(pages).toContain('/pro-plus</loc>');
    // A storefront with nothing but plans is not listed either.
    expect((await t.app.inject('/sitemaps/vendors.xml')).body).not.toContain('/v/tradeshelf<');
  });
  it('lists the configured origin, whatever Host or X-Forwarded-Host a request brings (issue 26)', async () => {
    // No PUBLIC_URL (only production requires it): the default origin, not the request's.
    const behind = await startTestApp({ TRUST_PROXY: '1' });
    const origin = `http://localhost:${behind.config.PORT}`;
    try {
      const hostile = {
        host: 'tradeshelf-account-security.evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
      };
      for (const url of ['/robots.txt', '/sitemap.xml', '/sitemaps/pages.xml']) {
        const res = await behind.app.inject({ url, headers: hostile });
        expect(res.statusCode, url).toBe(200);
        // Cached for an hour by anyone on the way: it must say the same to everyone.
        expect(res.headers['cache-control'], url).toBe('public, max-age=3600');
        expect(res.body, url).toContain(`${origin}/`);
        expect(res.body, url).not.toContain('evil.example');
      }
      expect((await behind.app.inject({ url: '/robots.txt', headers: hostile })).body).toContain(
        `Sitemap: ${origin}/sitemap.xml`,
      );
    } finally {
      await behind.close();
    }
  });
});
