import { catalogRoutes, reviewsRoutes, supportRoutes, type RouteDef } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBundle,
  createProduct,
  createVendor,
  requirePrerequisite,
} from '../test/factories/catalog.ts';
import { createUser } from '../test/factories/users.ts';
import { nextIp, startTestApp, type TestApp } from '../test/harness.ts';
import { pageReads } from './page-reads.ts';
import { inProcessCaller, type PageLoadContext } from './platform/web.ts';

let t: TestApp;
let direct: PageLoadContext;
let viaInject: PageLoadContext;
let productId: string;
let bundleId: string;

beforeAll(async () => {
  t = await startTestApp();
  direct = inProcessCaller(() => t.app, pageReads);
  viaInject = inProcessCaller(() => t.app, []);
  const vendor = await createVendor(t, { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge' });
  const rsi = await createProduct(t, vendor.id, {
    title: 'RSI Divergence Pro',
    tags: ['rsi'],
    amount: 2900,
    extraPrices: [24900],
  });
  const addOn = await createProduct(t, vendor.id, { title: 'Divergence Alerts', amount: 4900 });
  await requirePrerequisite(t, addOn.id, rsi.id);
  const bundle = await createBundle(t, vendor.id, [rsi.id, addOn.id], 6900, 'Momentum Bundle');
  productId = addOn.id;
  bundleId = bundle.id;
  const reviewer = await createUser(t, { username: 'chart_reader' });
  await t.database.db
    .execute(sql`insert into reviews (id, product_id, vendor_id, user_id, rating, text,
      reply_text, replied_at)
    values ('rev_page_read', ${rsi.id}, ${vendor.id}, ${reviewer.id}, 4, 'Finds divergences early.',
      'Thanks!', now())`);
  await t.database.db.execute(sql`insert into review_stats (product_id, vendor_id, count_4)
    values (${rsi.id}, ${vendor.id}, 1)`);
});
afterAll(() => t.close());

/** What a loader passes (numbers, booleans as the contract's client sends them, empty values). */
const cases = (): Array<[string, RouteDef, { query: Record<string, unknown> }]> => [
  ['productDetails', catalogRoutes.productDetails, { query: { id: productId } }],
  ['bundleDetails', catalogRoutes.bundleDetails, { query: { id: bundleId } }],
  [
    'search',
    catalogRoutes.search,
    { query: { q: 'divergence', sort: 'best_selling', limit: 8, category: undefined } },
  ],
  ['topVendors', catalogRoutes.topVendors, { query: { limit: 8 } }],
  ['vendorProfile', catalogRoutes.vendorProfile, { query: { vendorUrl: 'alpha-edge' } }],
  [
    'sellerProductList',
    catalogRoutes.sellerProductList,
    { query: { vendorUrl: 'alpha-edge', isActive: 'true' } },
  ],
  ['platformTerms', supportRoutes.platformTerms, { query: {} }],
  [
    'allReviews',
    reviewsRoutes.allReviews,
    { query: { vendorUrl: 'alpha-edge', productId: undefined, sort: 'highest', limit: 5 } },
  ],
];

describe('SSR page reads (ADR 013)', () => {
  it('cover only public reads', () => {
    for (const { route } of pageReads) {
      expect(route.method).toBe('GET');
      expect(['none', 'optional']).toContain(route.auth);
    }
  });

  it('answer exactly what the HTTP route answers', async () => {
    const covered = new Set(pageReads.map((r) => r.route.path));
    for (const [name, route, req] of cases()) {
      expect(covered.has(route.path), name).toBe(true);
      const inProcess = await direct.call(route, req, { ip: nextIp() });
      const overHttp = await viaInject.call(route, req, { ip: nextIp() });
      // Same data as the browser gets once it has been through JSON.
      expect(JSON.parse(JSON.stringify(inProcess)), name).toEqual(overHttp);
    }
  });

  it('keep the API statuses: unknown is 404, invalid input is 400', async () => {
    const client = { ip: nextIp() };
    for (const caller of [direct, viaInject]) {
      await expect(
        caller.call(catalogRoutes.productDetails, { query: { id: 'prd_missing' } }, client),
      ).rejects.toMatchObject({ status: 404, body: { code: 'not_found' } });
      await expect(
        caller.call(catalogRoutes.vendorProfile, { query: { vendorUrl: 'nobody-here' } }, client),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        caller.call(catalogRoutes.search, { query: { limit: 1000 } }, client),
      ).rejects.toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    }
  });
});
