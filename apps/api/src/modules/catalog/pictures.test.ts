import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { catalogRoutes, type ProductDetails } from '@tradeshelf/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { ensureWebBuild } from '../../../test/web-build.ts';
import { pageReads } from '../../page-reads.ts';
import { deleteImage, variantKeys } from '../../platform/images.ts';
import { inProcessCaller, loadWebApp } from '../../platform/web.ts';
import { attachDemoPictures, demoPicturePlan, renderDemoPictures } from './demo-pictures.ts';
import { seedDemoCatalog } from './seed.ts';

/** Issue 14: real covers, galleries and share images, served responsive and resolvable. */

let t: TestApp;
let product: ProductDetails;
let bundlePath: string;

beforeAll(async () => {
  const buildDir = ensureWebBuild();
  // Share images are absolute at the public origin (ADR 049).
  t = await startTestApp(
    { PUBLIC_URL: 'http://shop.test' },
    {
      web: (app) => loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 0 }),
    },
  );
  await seedDemoCatalog(t.database.db);
  await attachDemoPictures(t.database.db);
  // Only what these pages show, rendered for real (no cache): one product, its bundle, its vendor.
  const plan = demoPicturePlan();
  await renderDemoPictures(t.deps.storage, {
    cacheDir: null,
    pictures: [
      ...plan.products.get('alpha-edge/rsi-divergence-pro')!,
      plan.bundles.get('alpha-edge/momentum-trader-bundle')!,
      plan.vendors.get('alpha-edge')!.logo,
      plan.vendors.get('alpha-edge')!.card,
    ],
  });
  const found = await t.call(catalogRoutes.search, { query: { q: 'RSI Divergence Pro' } });
  const card = found
    .json()
    .products.find((p: { title: string }) => p.title === 'RSI Divergence Pro');
  product = (await t.call(catalogRoutes.productDetails, { query: { id: card.id } })).json().product;
  const list = await t.call(catalogRoutes.sellerProductList, {
    query: { vendorUrl: 'alpha-edge', isActive: 'true' },
  });
  const bundle = list.json().bundles[0] as { id: string; slug: string };
  bundlePath = `/b/${bundle.id}/${bundle.slug}`;
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const page = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'shop.test', accept: 'text/html' } });

/** `<meta property|name="key" content="…">` values of a page. */
function metaOf(html: string, key: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`, 'g');
  for (const m of html.matchAll(re)) out.push(m[1]!.replace(/&amp;/g, '&'));
  return out;
}

/** Fetches a URL of this site (absolute or not) and reads it as an image. */
async function image(url: string) {
  const path = url.replace(/^https?:\/\/shop\.test/, '');
  const res = await t.app.inject({ method: 'GET', url: path });
  expect(res.statusCode, url).toBe(200);
  return { type: res.headers['content-type'], meta: await sharp(res.rawPayload).metadata() };
}

async function expectShareImage(html: string, size: [number, number]) {
  const [og] = metaOf(html, 'og:image');
  expect(og, 'og:image').toMatch(/^https?:\/\/shop\.test\/files\/public\/.+\.jpg$/);
  expect(metaOf(html, 'twitter:image')).toEqual([og]);
  expect(metaOf(html, 'twitter:card')).toEqual(['summary_large_image']);
  expect(metaOf(html, 'og:image:width')).toEqual([String(size[0])]);
  expect(metaOf(html, 'og:image:height')).toEqual([String(size[1])]);
  expect(metaOf(html, 'og:image:alt')[0]).toBeTruthy();
  expect(metaOf(html, 'twitter:image:alt')[0]).toBeTruthy();
  const got = await image(og!);
  expect(got.type).toBe('image/jpeg');
  expect([got.meta.width, got.meta.height]).toEqual(size);
}

describe('product pictures', () => {
  it('a cache directory that cannot be made (the image’s read-only code) costs a render, not the start', async () => {
    // Under a regular file no directory can be made, as under code the app may not write.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-cache-')), 'file');
    writeFileSync(file, '');
    const logo = demoPicturePlan().vendors.get('alpha-edge')!.logo;
    await deleteImage(t.deps.storage, logo.ref);
    const done = await renderDemoPictures(t.deps.storage, {
      cacheDir: path.join(file, 'cache'),
      pictures: [logo],
    });
    expect(done).toMatchObject({ rendered: 1, copied: 0 });
    for (const key of variantKeys(logo.ref))
      expect(await t.deps.storage.exists(key), key).toBe(true);
  });

  it('a demo product has a cover and a gallery, each with its variants', async () => {
    expect(product.gallery).toHaveLength(2);
    expect(product.image).toEqual(product.gallery[0]);
    expect(product.imageUrl).toBe(`${product.gallery[0]!.base}/1200.jpg`);
    for (const picture of product.gallery) {
      expect(picture).toMatchObject({ width: 1200, height: 675, widths: [480, 800, 1200] });
      for (const w of picture.widths) {
        for (const [ext, format, type] of [
          ['avif', 'heif', 'image/avif'],
          ['webp', 'webp', 'image/webp'],
        ] as const) {
          const got = await image(`${picture.base}/${w}.${ext}`);
          expect(got.type).toBe(type);
          expect(got.meta.format).toBe(format);
          expect(got.meta.width).toBe(w);
          expect(got.meta.height).toBe(Math.round((w * 675) / 1200));
        }
      }
    }
  });

  it('the product page serves the cover responsive: AVIF and WebP srcsets, a size, high priority', async () => {
    const res = await page(`/p/${product.id}/${product.slug}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const cover = product.gallery[0]!;
    const avif = cover.widths.map((w) => `${cover.base}/${w}.avif ${w}w`).join(', ');
    const webp = cover.widths.map((w) => `${cover.base}/${w}.webp ${w}w`).join(', ');
    expect(html).toContain(`<source type="image/avif" srcSet="${avif}"`);
    expect(html).toContain(`<source type="image/webp" srcSet="${webp}"`);
    const img = html.match(new RegExp(`<img src="${cover.base}/1200\\.jpg"[^>]*>`))?.[0];
    expect(img, 'the cover <img>').toBeTruthy();
    expect(img).toContain('width="1200"');
    expect(img).toContain('height="675"');
    expect(img).toContain('fetchPriority="high"');
    expect(img).toContain('loading="eager"');
    // The gallery's thumbnails wait until they near the viewport.
    const second = product.gallery[1]!;
    const thumb = html.match(new RegExp(`<img src="${second.base}/1200\\.jpg"[^>]*>`))?.[0];
    expect(thumb).toContain('loading="lazy"');
    await expectShareImage(html, [1200, 675]);
  });

  it('bundle and storefront pages carry a resolvable share image', async () => {
    const bundle = await page(bundlePath);
    expect(bundle.statusCode).toBe(200);
    await expectShareImage(bundle.body, [1200, 675]);
    const store = await page('/v/alpha-edge');
    expect(store.statusCode).toBe(200);
    await expectShareImage(store.body, [1200, 630]);
  });

  it('lists show covers lazily, never the gradient placeholder, for products with pictures', async () => {
    const res = await page('/v/alpha-edge');
    const html = res.body;
    const cover = product.gallery[0]!;
    const tile = html.match(new RegExp(`<img src="${cover.base}/1200\\.jpg"[^>]*>`))?.[0];
    expect(tile).toContain('loading="lazy"');
    expect(tile).toContain('width="1200"');
    expect(html).not.toContain('>RSI Divergence Pro</span></div>');
  });
});

describe('pictures off the first screen (ADR 069)', () => {
  it('the home page names only its first-screen covers outside <noscript>; the rest follow hydration', async () => {
    const res = await page('/');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const hidden = [...html.matchAll(/<noscript>([\s\S]*?)<\/noscript>/g)].map((m) => m[1]!);
    const shown = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
    const covers = (text: string) => [...text.matchAll(/<img src="([^"]+\/1200\.jpg)"[^>]*>/g)];
    // The featured row's first four tiles load at once, in the HTML.
    const first = covers(shown);
    expect(first.map((m) => m[0])).toHaveLength(4);
    for (const [img] of first) expect(img).toContain('loading="eager"');
    // Every other cover is only in <noscript> (for browsers without script), lazily.
    const later = hidden.flatMap(covers);
    expect(later.length).toBeGreaterThan(8);
    for (const [img] of later) expect(img).toContain('loading="lazy"');
    const firstUrls = new Set(first.map((m) => m[1]));
    expect(later.filter((m) => firstUrls.has(m[1]))).toEqual([]);
  });
});

describe('icons', () => {
  it('serves /favicon.ico and the icon set the layout links', async () => {
    const home = await page('/');
    for (const href of ['/favicon.ico', '/icon.svg', '/apple-touch-icon.png', '/site.webmanifest'])
      expect(home.body).toContain(`href="${href}"`);
    const ico = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(ico.statusCode).toBe(200);
    expect(ico.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const touch = await image('/apple-touch-icon.png');
    expect([touch.meta.width, touch.meta.height]).toEqual([180, 180]);
    const manifest = await t.app.inject({ method: 'GET', url: '/site.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    const icons = (JSON.parse(manifest.body) as { icons: Array<{ src: string }> }).icons;
    for (const icon of icons)
      expect((await t.app.inject({ method: 'GET', url: icon.src })).statusCode, icon.src).toBe(200);
  });
});
