import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { ensureWebBuild } from '../../test/web-build.ts';
import { seedDemoCatalog } from '../modules/catalog/seed.ts';
import { pageReads } from '../page-reads.ts';
import { inProcessCaller, loadWebApp } from './web.ts';

let t: TestApp;

beforeAll(async () => {
  const buildDir = ensureWebBuild();
  t = await startTestApp(
    {},
    {
      web: (app) => loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 0 }),
    },
  );
  await seedDemoCatalog(t.database.db);
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** The canonical URL and robots rule a rendered search page tells search engines. */
async function head(url: string) {
  const res = await t.app.inject({ url, headers: { host: 'shop.test' } });
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
