import { catalogRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedLargeCatalog } from '../apps/api/src/modules/catalog/seed.ts';
import {
  bundleCardSelect,
  productCardColumns,
  productCardFrom,
} from '../apps/api/src/modules/catalog/repository.ts';
import { measure, percentile, report, startBenchApp } from './lib.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);

/** Realistic queries: words, typos, prefixes, filters, sorts, and empty-query category browsing. */
export function searchQueries(): string[] {
  const words = [
    'rsi',
    'macd',
    'vwap',
    'supertrend',
    'bollinger',
    'divergence',
    'order block',
    'volume profile',
    'fibonacci',
    'breakout',
    'squeeze',
    'ichimoku',
    'pivot',
    'delta',
    'atr',
    'heikin ashi',
    'market structure',
    'gap',
    'keltner',
    'stochastic',
  ];
  const typos = [
    'divergnce',
    'supertrnd',
    'bolinger',
    'fibonaci',
    'ichimokuu',
    'stochastc',
    'brekout',
    'volum profile',
  ];
  const prefixes = ['div', 'sup', 'vol', 'fib', 'bre', 'mar', 'ich', 'sto'];
  const cats = ['indicators', 'scanners', 'alerts', 'discord', 'courses', 'apps'];
  const sorts = ['relevance', 'newest', 'price_asc', 'rating', 'best_selling'];
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const params = new URLSearchParams();
    const pick = <T>(a: readonly T[]) => a[(i * 7 + a.length) % a.length]!;
    const mode = i % 5;
    if (mode === 0) params.set('q', words[i % words.length]!);
    if (mode === 1) params.set('q', typos[i % typos.length]!);
    if (mode === 2) params.set('q', prefixes[i % prefixes.length]!);
    if (mode === 3) {
      params.set('q', words[(i * 3) % words.length]!);
      params.set('category', pick(cats));
      params.set('maxPrice', String(5000 + (i % 10) * 2000));
    }
    if (mode === 4) params.set('category', cats[i % cats.length]!);
    params.set('sort', i % 4 === 0 ? sorts[i % sorts.length]! : 'relevance');
    params.set('limit', '24');
    out.push(`${catalogRoutes.search.path}?${params}`);
  }
  return out;
}

export async function run(): Promise<void> {
  const serverTimes: number[] = [];
  let recording = false;
  const b = await startBenchApp(null, {
    beforeListen(app) {
      app.addHook('onResponse', async (req, reply) => {
        if (recording && req.url.startsWith(catalogRoutes.search.path))
          serverTimes.push(reply.elapsedTime);
      });
    },
  });
  const bare = Fastify();
  const pool = new pg.Pool({ connectionString: b.dbUrl, max: 10 });
  try {
    const started = Date.now();
    await seedLargeCatalog(b.database.db, PRODUCTS);
    console.log(
      `\n(seeded ${PRODUCTS} products in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    const vendor = (
      await b.database.db.execute(sql`select vendor_url, id from vendors order by id limit 1`)
    ).rows[0] as { vendor_url: string; id: string };
    const product = (
      await b.database.db.execute(
        sql`select id from products where vendor_id = ${vendor.id} limit 1`,
      )
    ).rows[0] as { id: string };

    // Search: 200 queries over 20 connections; server time from Fastify's own clock.
    const queries = searchQueries();
    for (const q of queries) await fetch(b.url + q); // warm-up pass
    recording = true;
    const result = await autocannon({
      url: b.url,
      connections: 20,
      amount: queries.length * 5,
      requests: queries.map((path) => ({ method: 'GET' as const, path })),
    });
    recording = false;
    if (result.non2xx) throw new Error(`search: ${result.non2xx} non-2xx answers`);
    const p95 = percentile(serverTimes, 95);
    console.log(`\ncatalogue: search over ${PRODUCTS} products (${b.backend})`);
    console.log(
      `  200 queries x5 at 20 connections: server p50 ${percentile(serverTimes, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target <= 30 ms), ${result.requests.average.toFixed(0)} req/s`,
    );

    // Bare Fastify + pg running the very same SQL the module builds: the baseline for list and details.
    const dialect = new PgDialect();
    const listSql = dialect.sqlToQuery(sql`
      with v as (select id from vendors where lower(vendor_url) = lower(${vendor.vendor_url}))
      select 'product' as row_type, row_to_json(x) as data from (
        select ${productCardColumns(null)} ${productCardFrom}
        where p.vendor_id = (select id from v) and p.is_active = true order by p.sales_count desc, p.created_at desc limit 500) x
      union all
      select 'bundle', row_to_json(y) from (${bundleCardSelect(null)} where b.vendor_id = (select id from v) and b.is_active = true
        order by b.created_at desc limit 100) y`);
    const detailsSql =
      dialect.sqlToQuery(sql`select ${productCardColumns(null)}, p.description, p.images, p.asset_classes,
      (select coalesce(json_agg(x.*), '[]') from prices x where x.product_id = p.id and x.is_active) as prices
      ${productCardFrom} where p.id = ${product.id} and p.is_active`);
    bare.get('/list', async () => (await pool.query(listSql.sql, listSql.params)).rows);
    bare.get('/details', async () => (await pool.query(detailsSql.sql, detailsSql.params)).rows[0]);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

    const listPath = `${catalogRoutes.sellerProductList.path}?vendorUrl=${vendor.vendor_url}&isActive=true`;
    const detailsPath = `${catalogRoutes.productDetails.path}?id=${product.id}`;
    const bareList = await measure('bare Fastify + pg: seller list SQL', `${bareUrl}/list`);
    const list = await measure('GET /api/v1/products/list/search', b.url + listPath);
    report('catalogue: seller product list', b.backend, bareList, [list]);
    const bareDetails = await measure('bare Fastify + pg: details SQL', `${bareUrl}/details`);
    const details = await measure('GET /api/v1/products/details/search', b.url + detailsPath);
    report('catalogue: product details', b.backend, bareDetails, [details]);
  } finally {
    await bare.close();
    await pool.end();
    await b.close();
  }
}
