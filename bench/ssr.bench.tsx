import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { catalogRoutes, type ProductDetails } from '@tradeshelf/contract';
import Fastify from 'fastify';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { injectCaller, loadWebApp } from '../apps/api/src/platform/web.ts';
import Product from '../apps/web/app/routes/product.tsx';
import { ToastProvider } from '../apps/web/app/components/toasts.tsx';
import { ServicesContext } from '../apps/web/app/lib/services.tsx';
import { makeStore } from '../apps/web/app/store.ts';
import { measure, report, startBenchApp } from './lib.ts';
import type { FastifyInstance } from 'fastify';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JS_BUDGET_GZIP = 120 * 1024;

/**
 * The SSR product page (router, loaders through the API, meta, JSON-LD, full document) against a bare
 * renderToString of the same component with the same data; plus the JavaScript a product page ships.
 */
export async function run(): Promise<void> {
  createRequire(import.meta.url); // keep Node's CJS interop warm for react-dom/server
  let built: FastifyInstance | null = null;
  // Every request rendered (no page cache): the figure the target is about.
  const web = await loadWebApp(
    path.join(root, 'apps/web/build'),
    injectCaller(() => built!),
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
    const { seedDemoCatalog } = await import('../apps/api/src/modules/catalog/seed.ts');
    await seedDemoCatalog(b.database.db);
    const search = await fetch(
      `${b.url}${catalogRoutes.search.path}?q=RSI%20Divergence%20Pro&limit=1`,
    );
    const card = ((await search.json()) as { products: Array<{ id: string; slug: string }> })
      .products[0]!;
    const details = await fetch(`${b.url}${catalogRoutes.productDetails.path}?id=${card.id}`);
    const product = ((await details.json()) as { product: ProductDetails }).product;
    const pagePath = `/p/${card.id}/${card.slug}`;

    // Baseline: the same route component and data, rendered with nothing around it but what it needs.
    bare.get('/bare', async (_req, reply) => {
      const { store, api, session } = makeStore();
      const html = renderToString(
        <Provider store={store}>
          <ServicesContext.Provider value={{ api, session }}>
            <ToastProvider>
              <MemoryRouter initialEntries={[pagePath]}>
                <Product
                  loaderData={{ product }}
                  params={{ id: card.id, slug: card.slug }}
                  matches={[] as never}
                />
              </MemoryRouter>
            </ToastProvider>
          </ServicesContext.Provider>
        </Provider>,
      );
      return reply.type('text/html').send(`<!doctype html><html><body>${html}</body></html>`);
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

    const probe = await fetch(`${bareUrl}/bare`);
    if (!probe.ok) throw new Error(`bare render failed: ${await probe.text()}`);
    const baseline = await measure('bare renderToString(<Product/>)', `${bareUrl}/bare`);
    const page = await measure(`GET ${pagePath.replace(card.id, ':id')} (SSR)`, b.url + pagePath);

    // The same page with the default public-page cache (PAGE_CACHE_SECONDS=10), on a second app.
    let builtCached: FastifyInstance | null = null;
    const webCached = await loadWebApp(
      path.join(root, 'apps/web/build'),
      injectCaller(() => builtCached!),
      { pageCacheSeconds: 10 },
    );
    const cachedApp = await startBenchApp(webCached, {
      sharedDbUrl: b.dbUrl,
      beforeListen(app) {
        builtCached = app;
      },
    });
    const cachedPage = await measure(
      `GET ${pagePath.replace(card.id, ':id')} (SSR, page cache)`,
      cachedApp.url + pagePath,
    );
    await cachedApp.close();
    report('web: server-rendered product page (target ratio >= 0.5)', b.backend, baseline, [
      page,
      cachedPage,
    ]);

    // JavaScript shipped: every script and modulepreload the page references, gzipped.
    const html = await (await fetch(b.url + pagePath)).text();
    const srcs = new Set<string>();
    for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) srcs.add(m[1]!);
    for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g))
      srcs.add(m[1]!);
    let total = 0;
    for (const src of srcs)
      total += gzipSync(Buffer.from(await (await fetch(b.url + src)).arrayBuffer()), {
        level: 9,
      }).length;
    console.log(
      `  JavaScript for a product page: ${(total / 1024).toFixed(1)} KB gzip in ${srcs.size} files (budget ${JS_BUDGET_GZIP / 1024} KB, ratio ${(total / JS_BUDGET_GZIP).toFixed(2)} of budget)`,
    );
  } finally {
    await bare.close();
    await b.close();
  }
}
