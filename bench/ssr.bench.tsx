import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { catalogRoutes, reviewsRoutes, type ProductDetails } from '@tradeshelf/contract';
import type { ReviewPage } from '../apps/web/app/features/reviews/api.ts';
import Fastify from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { pageReads } from '../apps/api/src/page-reads.ts';
import { inProcessCaller, loadWebApp } from '../apps/api/src/platform/web.ts';
import { jsonLdString, siteJsonLd } from '../apps/web/app/lib/seo.ts';
import { measure, measureSideBySide, report, startBenchApp } from './lib.ts';
import type { FastifyInstance } from 'fastify';
import type { ComponentType } from 'react';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** JavaScript a public page may download, compressed on the wire (the brief's budget). */
const JS_BUDGET_WIRE = 135 * 1024;

/**
 * The SSR product page (router, loaders through the API, meta, JSON-LD, full document) against a bare
 * renderToString of the same component tree with the same data; plus the JavaScript a product page
 * ships.
 */
export async function run(): Promise<void> {
  createRequire(import.meta.url); // keep Node's CJS interop warm for react-dom/server
  let built: FastifyInstance | null = null;
  // Every request rendered (no page cache): the figure the target is about.
  const web = await loadWebApp(
    path.join(root, 'apps/web/build'),
    inProcessCaller(() => built!, pageReads),
    { pageCacheSeconds: 0 },
  );
  if (!web) throw new Error('apps/web/build is missing: run `npm run build` first');
  const b = await startBenchApp(web, {
    beforeListen(app) {
      built = app;
    },
  });
  const bare = Fastify();
  try {
    const { seedDemoCatalog, seedDemoOwnership, demoProductId } =
      await import('../apps/api/src/modules/catalog/seed.ts');
    await seedDemoCatalog(b.database.db);
    // The product page renders its reviews too (ADR 036): the demo's, as on a first start.
    const { seedDemoReviews } = await import('../apps/api/src/modules/reviews/seed.ts');
    await seedDemoReviews(b.database.db, {
      productId: (title) => demoProductId(b.database.db, title),
      own: (userId, productId) => seedDemoOwnership(b.database.db, userId, productId),
    });
    const search = await fetch(
      `${b.url}${catalogRoutes.search.path}?q=RSI%20Divergence%20Pro&limit=1`,
    );
    const card = ((await search.json()) as { products: Array<{ id: string; slug: string }> })
      .products[0]!;
    const details = await fetch(`${b.url}${catalogRoutes.productDetails.path}?id=${card.id}`);
    const product = ((await details.json()) as { product: ProductDetails }).product;
    const reviews = (await (
      await fetch(
        `${b.url}${reviewsRoutes.allReviews.path}?productId=${card.id}&sort=newest&limit=5`,
      )
    ).json()) as ReviewPage;
    const pagePath = `/p/${card.id}/${card.slug}`;

    // Baseline: the page's own component tree (document head with the route's meta and JSON-LD, the
    // root App with its store, header and footer, the product route) with the same data, rendered by a
    // bare renderToString: no router framework, no loaders, no HTTP emulation.
    // The route modules come from the same server build the SSR path renders (CSS imports and all).
    const build = (await import(
      pathToFileURL(path.join(root, 'apps/web/build/server/index.js')).href
    )) as { routes: Record<string, { module: Record<string, unknown> }> };
    const App = build.routes.root!.module.default as ComponentType<Record<string, unknown>>;
    const productModule = build.routes['routes/product']!.module;
    const Product = productModule.default as ComponentType<Record<string, unknown>>;
    const productMeta = productModule.meta as (args: unknown) => Array<Record<string, unknown>>;
    const origin = b.url;
    const rootData = { origin, state: {} };
    // The page inlines the built stylesheet (ADR 025): the bare tree writes the same text.
    const pageHtml = await (await fetch(b.url + pagePath)).text();
    const cssHref = /<style data-href="([^"]+)"/.exec(pageHtml)?.[1];
    const css = cssHref
      ? await readFile(path.join(root, 'apps/web/build/client', cssHref), 'utf8')
      : '';
    const head = productMeta({
      data: { product, reviews, reviewSort: 'newest' },
      matches: [{ id: 'root', data: rootData }],
    });
    const Head = () => (
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {head.map((d, i) =>
          'title' in d ? (
            <title key={i}>{String(d.title)}</title>
          ) : 'script:ld+json' in d ? (
            <script
              key={i}
              type="application/ld+json"
              dangerouslySetInnerHTML={{ __html: jsonLdString(d['script:ld+json']) }}
            />
          ) : d.tagName === 'link' ? (
            <link key={i} rel={String(d.rel)} href={String(d.href)} />
          ) : (
            <meta key={i} {...(d as Record<string, string>)} />
          ),
        )}
        {css && <style dangerouslySetInnerHTML={{ __html: css }} />}
        {siteJsonLd(origin).map((d, i) => (
          <script
            key={`site${i}`}
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: jsonLdString(d) }}
          />
        ))}
      </head>
    );
    // Route modules in a build are wrapped to read their props from a data router; a memory router
    // built once, holding the loader data, gives them that without running anything per request.
    const router = createMemoryRouter(
      [
        {
          id: 'root',
          path: '/',
          element: <App />,
          children: [{ id: 'routes/product', path: 'p/:id/:slug', element: <Product /> }],
        },
      ],
      {
        initialEntries: [pagePath],
        hydrationData: {
          loaderData: {
            root: rootData,
            'routes/product': { product, reviews, reviewSort: 'newest' },
          },
        },
      },
    );
    bare.get('/bare', async (_req, reply) => {
      const html = renderToString(
        <html lang="en" className="dark">
          <Head />
          <body className="min-h-screen">
            <RouterProvider router={router} />
          </body>
        </html>,
      );
      return reply.type('text/html').send(`<!DOCTYPE html>${html}`);
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

    const probe = await fetch(`${bareUrl}/bare`);
    if (!probe.ok) throw new Error(`bare render failed: ${await probe.text()}`);
    const [baseline, page] = await measureSideBySide([
      { title: 'bare renderToString(same tree, same data)', url: `${bareUrl}/bare` },
      { title: `GET ${pagePath.replace(card.id, ':id')} (SSR)`, url: b.url + pagePath },
    ]);

    // The same page with the default public-page cache (PAGE_CACHE_SECONDS=10), on a second app.
    let builtCached: FastifyInstance | null = null;
    const webCached = await loadWebApp(
      path.join(root, 'apps/web/build'),
      inProcessCaller(() => builtCached!, pageReads),
      { pageCacheSeconds: 10 },
    );
    const cachedApp = await startBenchApp(webCached, {
      sharedDbUrl: b.dbUrl,
      beforeListen(app) {
        builtCached = app;
      },
    });
    // As browsers ask: a hit is the stored gzip with this response's nonce written in (ADR 025).
    const cachedPage = await measure(
      `GET ${pagePath.replace(card.id, ':id')} (SSR, page cache, gzip)`,
      cachedApp.url + pagePath,
      { 'accept-encoding': 'gzip, deflate, br' },
    );
    await cachedApp.close();
    report(
      'web: server-rendered product page (targets: SSR >= 0.35, page cache >= 3)',
      b.backend,
      baseline!,
      [page!, cachedPage],
    );

    // JavaScript shipped: every script and modulepreload the page references, as the server sends it
    // to a browser (the build's brotli files).
    const html = await (await fetch(b.url + pagePath)).text();
    const srcs = new Set<string>();
    // The page names them in the script that starts the app after first paint (ADR 069).
    for (const m of html.matchAll(/\/assets\/[\w.-]+\.js/g)) srcs.add(m[0]);
    let total = 0;
    for (const src of srcs) {
      const res = await fetch(b.url + src, { headers: { 'accept-encoding': 'br, gzip' } });
      // fetch decodes the body; the bytes on the wire are the declared length.
      total += Number(res.headers.get('content-length') ?? (await res.arrayBuffer()).byteLength);
      if (res.bodyUsed === false) await res.arrayBuffer();
    }
    // Scripts inlined in the page (router context, route imports, the loader data it hydrates from);
    // JSON-LD is data for search engines, not script, and is left out.
    let inline = '';
    for (const m of html.matchAll(
      /<script(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g,
    ))
      inline += m[1];
    const inlineGzip = gzipSync(Buffer.from(inline), { level: 9 }).length;
    console.log(
      `  JavaScript for a product page: ${(total / 1024).toFixed(1)} KB on the wire (brotli) in ${srcs.size} files (budget ${JS_BUDGET_WIRE / 1024} KB, ratio ${(total / JS_BUDGET_WIRE).toFixed(2)} of budget), plus ${(inlineGzip / 1024).toFixed(1)} KB gzip inline (router context and page data)`,
    );
  } finally {
    await bare.close();
    await b.close();
  }
}
