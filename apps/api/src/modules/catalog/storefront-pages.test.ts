import {
  authRoutes,
  catalogRoutes,
  usersRoutes,
  vendorStorefrontRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../test/factories/catalog.ts';
import { createUser } from '../../../test/factories/users.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startTestAppWithPages } from '../../../test/pages.ts';

/**
 * Issue 19, ADR 041: a storefront edit shows on its page at once, though public pages are cached,
 * and an old address redirects to the new one; search and the sitemap follow.
 */

let t: TestApp;
beforeAll(async () => {
  // Wired as in production (main.ts): the catalogue's version drops the cached pages.
  t = await startTestAppWithPages(60);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const page = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', accept: 'text/html' } });

describe('storefront pages follow edits', () => {
  it('serves the edit at once, redirects the old address, and search and sitemap follow', async () => {
    const user = await createUser(t);
    const token = (await t.call(authRoutes.login, { body: user })).json().token as string;
    expect((await t.call(usersRoutes.addVendorRole, { token })).statusCode).toBe(200);
    const first = `pages-${Math.random().toString(36).slice(2, 8)}`;
    const save = (vendorUrl: string, displayName: string) =>
      t.call(vendorStorefrontRoutes.saveVendorStorefront, {
        token,
        body: { vendorUrl, displayName, bio: `${displayName} bio` },
      });
    const created = await save(first, 'Lighthouse Charts');
    expect(created.statusCode, created.body).toBe(200);
    const vendorId = created.json().storefront.id as string;
    const empty = await t.app.inject({ method: 'GET', url: '/sitemaps/vendors.xml' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<urlset');
    expect(empty.body).not.toContain(`/v/${first}</loc>`);
    const product = await createProduct(t, vendorId, { title: 'Lighthouse Oscillator' });

    const before = await page(`/v/${first}`);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Lighthouse Charts');
    // Cached now: a second request is a copy (it has an Age). The product's page names the vendor.
    expect((await page(`/v/${first}`)).headers.age).toBeDefined();
    const { slug } = (
      await t.database.db.execute<{ slug: string }>(
        sql`select slug from products where id = ${product.id}`,
      )
    ).rows[0]!;
    const productPath = `/p/${product.id}/${slug}`;
    expect((await page(productPath)).body).toContain('Lighthouse Charts');
    expect((await page(productPath)).headers.age).toBeDefined();

    expect((await save(first, 'Harbour Charts')).statusCode).toBe(200);
    const edited = await page(`/v/${first}`);
    expect(edited.headers.age).toBeUndefined();
    expect(edited.body).toContain('Harbour Charts');
    expect(edited.body).not.toContain('Lighthouse Charts');
    const productPage = await page(productPath);
    expect(productPage.headers.age).toBeUndefined();
    expect(productPage.body).toContain('Harbour Charts');

    const second = `${first}-new`;
    expect((await save(second, 'Harbour Charts')).statusCode).toBe(200);
    const old = await page(`/v/${first}?ref=abc`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/v/${second}?ref=abc`);
    const upper = await page(`/v/${second.toUpperCase()}`);
    expect(upper.statusCode).toBe(301);
    expect(upper.headers.location).toBe(`/v/${second}`);
    const moved = await page(`/v/${second}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.body).toContain('Harbour Charts');

    const found = await t.call(catalogRoutes.search, { query: { q: 'Lighthouse Oscillator' } });
    const card = found.json().products.find((p: { id: string }) => p.id === product.id);
    expect(card.vendor).toMatchObject({ vendorUrl: second, displayName: 'Harbour Charts' });

    const sitemap = await t.app.inject({ method: 'GET', url: '/sitemaps/vendors.xml' });
    expect(sitemap.body).toContain(`/v/${second}</loc>`);
    expect(sitemap.body).not.toContain(`/v/${first}</loc>`);
    const rows = await t.database.db.execute(
      sql`select url from vendor_url_aliases where vendor_id = ${vendorId}`,
    );
    expect(rows.rows).toEqual([{ url: first }]);
  });
});
