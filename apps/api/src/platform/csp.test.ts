import { createHash } from 'node:crypto';
import { catalogRoutes, ordersRoutes } from '@tradeshelf/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../test/factories/catalog.ts';
import { createBuyer } from '../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { ensureWebBuild } from '../../test/web-build.ts';
import { seedDemoCatalog } from '../modules/catalog/seed.ts';
import { pageReads } from '../page-reads.ts';
import { mediaOrigins, pagePolicy } from './csp.ts';
import { inProcessCaller, loadWebApp } from './web.ts';

let t: TestApp;
let productPath: string;

beforeAll(async () => {
  const buildDir = ensureWebBuild();
  t = await startTestApp(
    {},
    {
      web: (app) => loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 10 }),
    },
  );
  await seedDemoCatalog(t.database.db);
  const found = await t.call(catalogRoutes.search, {
    query: { q: 'RSI Divergence Pro', limit: '1' },
  });
  const card = found.json().products[0] as { id: string; slug: string };
  productPath = `/p/${card.id}/${card.slug}`;
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** The policy's directives by name. */
function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, 'a Content-Security-Policy header').toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/**
 * Checks an HTML answer's policy against its markup: scripts only by this response's nonce, no
 * `'unsafe-inline'`/`'unsafe-eval'`, nothing framing or re-basing it, and every inline `<script>`
 * and `<style>` carrying the nonce. Returns the nonce.
 */
function nonceOf(res: LightMyRequestResponse): string {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const csp = directives(res);
  const scripts = csp.get('script-src') ?? [];
  const nonces = scripts.filter((s) => s.startsWith("'nonce-"));
  expect(nonces).toHaveLength(1);
  const nonce = nonces[0]!.slice("'nonce-".length, -1);
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(csp.get('style-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  // Browsers without CSP level 2 read X-Frame-Options: it must say the same as frame-ancestors.
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(csp.get('connect-src')).toEqual(["'self'"]);

  const html = res.body;
  const inline = [...html.matchAll(/<(script|style)\b([^>]*)>/g)].filter(
    ([, tag, attrs]) => tag === 'style' || !/\bsrc=/.test(attrs!),
  );
  for (const [, tag, attrs] of inline)
    expect(attrs, `<${tag}${attrs}> carries the nonce`).toContain(` nonce="${nonce}"`);
  // A nonce cannot cover a `style` attribute: each one must be allowed by its hash.
  for (const [, value] of html.matchAll(/\sstyle="([^"]*)"/g))
    expect(csp.get('style-src-attr'), `style="${value}"`).toContain(sha256(value!));
  return nonce;
}

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('Content-Security-Policy', () => {
  it('gives every server-rendered page a nonce that its inline scripts carry', async () => {
    for (const url of ['/', productPath, '/search?q=rsi', '/login']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      const nonce = nonceOf(res);
      // The router context, the route imports, the loader data and the JSON-LD blocks.
      const carrying = res.body.split(`<script nonce="${nonce}"`).length - 1;
      expect(carrying, url).toBeGreaterThanOrEqual(3);
      expect(res.body).toMatch(
        new RegExp(
          `<script type="application/ld\\+json" nonce="${nonce.replace(/[+/]/g, '\\$&')}">`,
        ),
      );
      expect(directives(res).get('script-src')).toContain("'strict-dynamic'");
    }
    const missing = await get('/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page not found');
    nonceOf(missing);
  });

  it('never sends a nonce twice, also when the page comes from the page cache', async () => {
    // A URL no other test has rendered, so the first answer is a fresh render.
    const url = `${productPath}?from=cache-test`;
    const first = await get(url);
    const second = await get(url);
    const third = await get(url);
    expect(first.headers.age).toBeUndefined();
    expect(second.headers.age).toMatch(/^\d+$/);
    const nonces = [first, second, third].map(nonceOf);
    expect(new Set(nonces).size).toBe(3);
    // The cached copy is the same page with only the nonce swapped.
    expect(second.body.replaceAll(nonces[1]!, nonces[0]!)).toBe(first.body);
    expect(third.body.replaceAll(nonces[2]!, nonces[0]!)).toBe(first.body);
    expect(second.body).not.toContain(nonces[0]);
  });

  it('nonces the sandbox hosted pages and the local outbox', async () => {
    const vendor = await createVendor(t);
    const product = await createProduct(t, vendor.id, { title: 'CSP Scanner', amount: 4900 });
    const buyer = await createBuyer(t);
    const created = await t.call(ordersRoutes.checkoutProduct, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: product.priceId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { url } = created.json() as { url: string };
    const customer = await t.deps.stripeSandbox!.createCustomer(
      { email: 'csp@example.test' },
      null,
    );
    const portal = await t.deps.payments.createPortal({
      customerId: customer.id,
      returnUrl: 'http://localhost/orders',
    });
    const pages = [
      new URL(url).pathname,
      new URL(portal.url).pathname,
      '/sandbox/portal/bps_forged',
      '/sandbox/payments',
      '/dev/mail',
    ];
    for (const path of pages) {
      const a = await get(path);
      const b = await get(path);
      expect(a.statusCode, path).toBeLessThan(500);
      const nonce = nonceOf(a);
      expect(a.body, path).toContain(`<style nonce="${nonce}">`);
      expect(nonceOf(b)).not.toBe(nonce);
    }
    // The portal's link colour is a `style` attribute, allowed by its hash.
    expect((await get(new URL(portal.url).pathname)).body).toContain('style="color:#9db6ff"');
  });

  it('lets the API docs load only same-origin code: the page has no inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')?.filter((s) => s !== "'self'")).toEqual([
      // Swagger UI's logo is an SVG with a `<style>` of its own.
      sha256('.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}'),
    ]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(res.body).toMatch(/<script src=/);
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body).not.toMatch(/<style|\sstyle=/);
  });

  it('lets nothing load from or frame API answers and files', async () => {
    const json = await t.call(catalogRoutes.search, { query: { q: 'rsi' } });
    const answers = [json];
    for (const url of ['/healthz', '/api/v1/no-such-route', '/openapi.json', '/robots.txt'])
      answers.push(await get(url));
    for (const res of answers)
      expect(Object.fromEntries(directives(res))).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
  });

  it('lets pages show media from the storage origin when it is another one (S3, a CDN)', () => {
    const s3 = mediaOrigins({ publicUrl: (key) => `https://cdn.example.com/media/${key}` });
    expect(s3).toEqual(['https://cdn.example.com']);
    expect(mediaOrigins(t.deps.storage)).toEqual([]);
    const policy = pagePolicy({ imgSrc: s3 })('n');
    expect(policy).toContain("img-src 'self' https://cdn.example.com;");
    // Course videos and captions stream from signed URLs on that origin.
    const withMedia = pagePolicy({ imgSrc: s3, mediaSrc: s3 })('n');
    expect(withMedia).toContain("; media-src 'self' https://cdn.example.com;");
    // Local storage is this origin: `default-src 'self'` covers it, no media-src is added.
    expect(pagePolicy({ mediaSrc: mediaOrigins(t.deps.storage) })('n')).not.toContain('media-src');
  });
});
