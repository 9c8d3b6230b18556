import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { ensureWebBuild } from '../../test/web-build.ts';
import { seedDemoCatalog } from '../modules/catalog/seed.ts';
import { pageReads } from '../page-reads.ts';
import { addressKey, rules } from './rate-limit.ts';
import { inProcessCaller, loadWebApp } from './web.ts';

let t: TestApp;
const SEARCH_LIMIT = 8;

beforeAll(async () => {
  const buildDir = ensureWebBuild();
  t = await startTestApp(
    { PUBLIC_URL: 'http://shop.test', SEARCH_LIMIT_PER_IP_MINUTE: String(SEARCH_LIMIT) },
    {
      web: (app) => loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 0 }),
    },
  );
  await seedDemoCatalog(t.database.db);
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/**
 * The canonical URL and robots rule a rendered search page tells search engines. The request's Host
 * plays no part: the URLs are PUBLIC_URL's (issue 26).
 */
async function head(url: string) {
  const res = await t.app.inject({ url, headers: { host: 'evil.example' } });
  expect(res.statusCode).toBe(200);
  const canonical = /<link rel="canonical" href="([^"]*)"\/>/.exec(res.body)?.[1];
  const ogUrl = /<meta property="og:url" content="([^"]*)"\/>/.exec(res.body)?.[1];
  const noindex = /<meta name="robots" content="noindex"\/>/.test(res.body);
  return {
    canonical: canonical?.replaceAll('&amp;', '&'),
    ogUrl: ogUrl?.replaceAll('&amp;', '&'),
    noindex,
  };
}

describe('search pages as search engines see them', () => {
  it('an empty query is /search itself: indexable, canonical without empty parameters', async () => {
    expect(await head('/search?q=&category=')).toEqual({
      canonical: 'http://shop.test/search',
      ogUrl: 'http://shop.test/search',
      noindex: false,
    });
  });

  it('a category landing page is indexable', async () => {
    expect(await head('/search?category=indicators&q=&platform=')).toEqual({
      canonical: 'http://shop.test/search?category=indicators',
      ogUrl: 'http://shop.test/search?category=indicators',
      noindex: false,
    });
  });

  it('typed queries and filters are noindex, their canonical clean', async () => {
    expect(await head('/search?q=rsi&category=&kind=')).toEqual({
      canonical: 'http://shop.test/search?q=rsi',
      ogUrl: 'http://shop.test/search?q=rsi',
      noindex: true,
    });
    expect((await head('/search?category=indicators&platform=tradingview')).noindex).toBe(true);
  });
});

describe('search pages count the browser’s address (issue 26)', () => {
  it('over the limit, a page says the wait the limiter gave, not a fixed minute', async () => {
    // This address's window is 7 s from its end (counted as the search rule counts).
    await t.deps.limiter.hit({ ...rules.searchIp, windowSeconds: 7 }, addressKey('192.0.2.70'));
    const page = () =>
      t.app.inject({
        url: '/search?q=rsi',
        remoteAddress: '192.0.2.70',
        headers: { accept: 'text/html' },
      });
    let res = await page();
    for (let i = 0; i < SEARCH_LIMIT && res.statusCode === 200; i++) res = await page();
    expect(res.statusCode).toBe(429);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(7);
  });

  it('against the same per-address search limit as the API, not against loopback', async () => {
    const page = (remoteAddress: string) =>
      t.app.inject({ url: '/search?q=rsi', remoteAddress, headers: { accept: 'text/html' } });
    const api = (remoteAddress: string) =>
      t.app.inject({ url: '/api/v1/products/term/search?q=rsi', remoteAddress });
    for (let i = 0; i < SEARCH_LIMIT; i++) expect((await page('192.0.2.60')).statusCode).toBe(200);
    // The pages rendered for 192.0.2.60 used its searches up, wherever the renderer runs.
    const refused = await api('192.0.2.60');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const over = await page('192.0.2.60');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await page('192.0.2.61')).statusCode).toBe(200);
    expect((await api('192.0.2.61')).statusCode).toBe(200);
  });
});
