import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { catalogRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import Fastify, { type FastifyInstance } from 'fastify';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Db } from '../apps/api/src/db/client.ts';
import { seedLargeCatalog } from '../apps/api/src/modules/catalog/seed.ts';
import {
  productDetailsQuery,
  sellerListQuery,
} from '../apps/api/src/modules/catalog/repository.ts';
import { measureSideBySide, percentile, report, startBenchApp } from './lib.ts';

/**
 * Catalogue sizes searched, smallest first, in one database grown from one to the next:
 * `BENCH_SIZES` (a comma list), or `BENCH_PRODUCTS` for one size. The slowest search is where a
 * marketplace starts small (issue 27: 10 000 products was the worst), so every size is measured.
 */
const SIZES = (process.env.BENCH_SIZES ?? process.env.BENCH_PRODUCTS ?? '1000,10000,100000,1000000')
  .split(',')
  .map((s) => Number(s.replace(/[\s_]/g, '')))
  .sort((a, b) => a - b);
if (!SIZES.length || SIZES.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('BENCH_SIZES: a comma list of product counts, e.g. 1000,10000');
const PRODUCTS = SIZES.at(-1)!;
const TARGET_P95_MS = 30;
const sizeName = (n: number) => n.toLocaleString('en').replaceAll(',', ' ');

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

/**
 * Queries as traders type them (ADR 023): product types, platforms and asset classes by name and
 * abbreviation, with and without other words, several typos; `BENCH_SEARCH_MIX=trader` measures these
 * instead of {@link searchQueries}.
 */
export function traderQueries(): string[] {
  const words = [
    'rsi indicator',
    'divergence indicator',
    'mt5',
    'tradingview',
    'mt4 scanner',
    'macd mt5',
    'vwap tv',
    'supertrend tradingview',
    'crypto alerts',
    'forex scanner',
    'futures discord',
    'nt8',
    'ctrader indicator',
    'smc',
    'fvg',
    'order block indicator',
    'scanners',
    'bollinger bands crypto',
    'squeeze alerts',
    'stocks course',
  ];
  const typos = [
    'tradingveiw',
    'divergnce indicatr',
    'ninjatrdr',
    'metatrder 5',
    'stochastc scaner',
    'suprtrend tv',
    'bolinger crpyto',
    'fibonaci mt4',
  ];
  const cats = ['indicators', 'scanners', 'alerts', 'discord', 'courses', 'apps'];
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const params = new URLSearchParams();
    const mode = i % 4;
    if (mode === 0 || mode === 1) params.set('q', words[i % words.length]!);
    if (mode === 2) params.set('q', typos[i % typos.length]!);
    if (mode === 3) {
      params.set('q', words[(i * 3) % words.length]!);
      params.set('category', cats[i % cats.length]!);
    }
    params.set('limit', '24');
    out.push(`${catalogRoutes.search.path}?${params}`);
  }
  return out;
}

/**
 * 200 queries x5 over 20 connections against one app; server time from Fastify's own clock. Three
 * measured passes after a warm-up; the median pass is reported, with the other two passes' p95 beside it.
 */
async function searchLoad(app: Awaited<ReturnType<typeof startBenchApp>>, rec: SearchTimes) {
  const queries = process.env.BENCH_SEARCH_MIX === 'trader' ? traderQueries() : searchQueries();
  const load = async (amount: number) => {
    const result = await autocannon({
      url: app.url,
      connections: 20,
      amount,
      requests: queries.map((path) => ({ method: 'GET' as const, path })),
    });
    if (result.non2xx) throw new Error(`search: ${result.non2xx} non-2xx answers`);
  };
  // Warm-up, unmeasured: each query once (fills the cache when it is on), then one concurrent pass of
  // the measured size, so every pooled connection has prepared its statements and planned the search
  // functions, and the JIT has seen the code under load: a running server's state, not a cold start.
  for (const q of queries) await fetch(app.url + q);
  await load(queries.length * 5);
  const passes: Array<{ p50: number; p95: number; rps: number; nodeCpu: number; pgCpu: number }> =
    [];
  for (let i = 0; i < 3; i++) {
    Object.assign(rec, { elapsed: [], first: Infinity, last: 0 });
    const node = process.cpuUsage();
    const pg = await backendCpu(app.database.db);
    await load(queries.length * 5);
    const nodeUsed = process.cpuUsage(node);
    const pgUsed = await backendCpu(app.database.db);
    const n = rec.elapsed.length;
    passes.push({
      p50: percentile(rec.elapsed, 50),
      p95: percentile(rec.elapsed, 95),
      // Over the server's span from first request to last response: autocannon's own average counts
      // whole seconds and its run ends on a one-second tick.
      rps: n / ((rec.last - rec.first) / 1000),
      nodeCpu: (nodeUsed.user + nodeUsed.system) / 1000 / n,
      pgCpu: pg && pgUsed ? cpuBetween(pg, pgUsed) / n : NaN,
    });
  }
  passes.sort((a, b) => a.p95 - b.p95);
  return { ...passes[1]!, p95s: passes.map((p) => p.p95.toFixed(1)).join(', ') };
}

/**
 * CPU time (ms) of each PostgreSQL backend serving the bench database, from /proc: the server runs on
 * this machine. Null when /proc cannot be read (a remote or embedded database).
 */
async function backendCpu(db: Db): Promise<Map<number, number> | null> {
  const { rows } = await db.execute<{ pid: number }>(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  );
  const out = new Map<number, number>();
  try {
    for (const { pid } of rows) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS);
    }
  } catch {
    return null;
  }
  return out;
}
const CLOCK_TICKS = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
/** CPU the backends present at both readings used in between. */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of after) if (before.has(pid)) used += ms - before.get(pid)!;
  return used;
}

/** Server time per search (Fastify's own clock) and the span the searches covered. */
interface SearchTimes {
  elapsed: number[];
  first: number;
  last: number;
}
const searchTimes = (): SearchTimes => ({ elapsed: [], first: Infinity, last: 0 });

function recordSearchTimes(rec: SearchTimes) {
  return (app: FastifyInstance) => {
    app.addHook('onResponse', async (req, reply) => {
      if (!req.url.startsWith(catalogRoutes.search.path)) return;
      const now = performance.now();
      rec.elapsed.push(reply.elapsedTime);
      rec.first = Math.min(rec.first, now - reply.elapsedTime);
      rec.last = Math.max(rec.last, now);
    });
  };
}

export async function run(): Promise<void> {
  // The cold app never reuses result ids (every request runs the full search); the cached one does.
  const coldTimes = searchTimes();
  const b = await startBenchApp(null, {
    beforeListen: recordSearchTimes(coldTimes),
    env: { SEARCH_CACHE_SECONDS: '0' },
  });
  const bare = Fastify();
  const pool = new pg.Pool({ connectionString: b.dbUrl, max: 10 });
  let cached: Awaited<ReturnType<typeof startBenchApp>> | null = null;
  try {
    // BENCH_REUSE_DB: a database seeded by an earlier run is measured again as it is (its size only).
    const present = Number(
      (await b.database.db.execute(sql`select count(*)::int as n from products`)).rows[0]!.n,
    );
    const reuse = Boolean(process.env.BENCH_REUSE_DB) && present >= PRODUCTS;
    if (reuse) console.log(`\n(reusing ${present} products)`);
    const bySize: Array<{ size: number; search: Awaited<ReturnType<typeof searchLoad>> }> = [];
    let seeded = 0;
    for (const size of reuse ? [PRODUCTS] : SIZES) {
      const started = Date.now();
      if (!reuse) {
        // Grows the catalogue to `size`, numbering on, as one seed of that size would have made it.
        await seedLargeCatalog(b.database.db, size - seeded, seeded + 1);
        seeded = size;
        // Settle the fresh rows now rather than let autovacuum wake up in the middle of a measurement.
        await b.database.db.execute(sql`vacuum analyze`);
      }
      const measuring = Date.now();
      const search = await searchLoad(b, coldTimes);
      bySize.push({ size, search });
      // Progress as it goes: the largest size takes long to seed.
      console.log(
        `(${sizeName(size)} products: seeded in ${((measuring - started) / 1000).toFixed(1)} s, ` +
          `searched in ${((Date.now() - measuring) / 1000).toFixed(1)} s: p95 ${search.p95.toFixed(1)} ms)`,
      );
    }
    const vendor = (
      await b.database.db.execute(sql`select vendor_url, id from vendors order by id limit 1`)
    ).rows[0] as { vendor_url: string; id: string };
    const product = (
      await b.database.db.execute(
        sql`select id from products where vendor_id = ${vendor.id} limit 1`,
      )
    ).rows[0] as { id: string };

    const cold = bySize.at(-1)!.search;
    // Each size beside the smallest one measured in the same run: what a bigger catalogue costs a
    // search, on this machine as it is at the time (compare ratios across days, not milliseconds).
    const base = bySize[0]!;
    console.log(
      `\ncatalogue: search by size (${b.backend}), 200 ${process.env.BENCH_SEARCH_MIX === 'trader' ? 'trader ' : ''}queries x5 at 20 connections, no result cache; ` +
        `baseline: ${sizeName(base.size)} products, same run; target p95 <= ${TARGET_P95_MS} ms at every size`,
    );
    for (const { size, search } of bySize)
      console.log(
        `  ${sizeName(size).padStart(9)} products: p50 ${search.p50.toFixed(1)} ms, p95 ${search.p95.toFixed(1)} ms ` +
          `(passes ${search.p95s}), ratio ${(search.p95 / base.search.p95).toFixed(2)}; ` +
          `PostgreSQL ${search.pgCpu.toFixed(2)} ms CPU per search; ` +
          `${(search.p95 / TARGET_P95_MS).toFixed(2)} of the target: ${search.p95 <= TARGET_P95_MS ? 'met' : 'NOT met'}`,
      );
    const lines = [
      `  no result cache:   server p50 ${cold.p50.toFixed(1)} ms, p95 ${cold.p95.toFixed(1)} ms, ${cold.rps.toFixed(0)} req/s  (median of 3 passes; p95 ${cold.p95s} ms)`,
      `                     CPU per search: Node ${cold.nodeCpu.toFixed(2)} ms (autocannon included), PostgreSQL ${cold.pgCpu.toFixed(2)} ms`,
    ];
    if (process.env.DATABASE_URL) {
      const warmTimes = searchTimes();
      cached = await startBenchApp(null, {
        beforeListen: recordSearchTimes(warmTimes),
        env: { SEARCH_CACHE_SECONDS: '600' },
        sharedDbUrl: b.dbUrl,
      });
      const warm = await searchLoad(cached, warmTimes);
      lines.push(
        `  result-id cache:   server p50 ${warm.p50.toFixed(1)} ms, p95 ${warm.p95.toFixed(1)} ms, ${warm.rps.toFixed(0)} req/s  (p95 ${warm.p95s} ms; median's ratio to no cache ${(warm.p95 / cold.p95).toFixed(2)})`,
      );
    }
    console.log(
      `\ncatalogue: search over ${PRODUCTS} products (${b.backend}), 200 ${process.env.BENCH_SEARCH_MIX === 'trader' ? 'trader ' : ''}queries x5 at 20 connections, target p95 <= 30 ms`,
    );
    for (const line of lines) console.log(line);
    if (process.env.BENCH_ONLY === 'search') return;

    // Bare Fastify + pg running the very same SQL the module builds: as a plain parameterised query (the
    // baseline the target names) and as a named prepared statement, which is how the app runs its hot
    // reads (ADR 014); the second isolates everything around the query.
    const dialect = new PgDialect();
    const listSql = dialect.sqlToQuery(sellerListQuery(null, vendor.vendor_url, true));
    const detailsSql = dialect.sqlToQuery(productDetailsQuery(null, product.id));
    const named = (name: string, q: { sql: string; params: unknown[] }) => ({
      name,
      text: q.sql,
      values: q.params,
    });
    bare.get('/list', async () => (await pool.query(listSql.sql, listSql.params)).rows);
    bare.get('/details', async () => (await pool.query(detailsSql.sql, detailsSql.params)).rows[0]);
    bare.get('/list-prepared', async () => (await pool.query(named('bare_list', listSql))).rows);
    bare.get(
      '/details-prepared',
      async () => (await pool.query(named('bare_details', detailsSql))).rows[0],
    );
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

    const listPath = `${catalogRoutes.sellerProductList.path}?vendorUrl=${vendor.vendor_url}&isActive=true`;
    const detailsPath = `${catalogRoutes.productDetails.path}?id=${product.id}`;
    const [bareList, bareListPrepared, list] = await measureSideBySide([
      { title: 'bare Fastify + pg: seller list SQL', url: `${bareUrl}/list` },
      { title: 'bare Fastify + pg: same, prepared', url: `${bareUrl}/list-prepared` },
      { title: 'GET /api/v1/products/list/search', url: b.url + listPath },
    ]);
    report('catalogue: seller product list', b.backend, bareList!, [bareListPrepared!, list!]);
    const [bareDetails, bareDetailsPrepared, details] = await measureSideBySide([
      { title: 'bare Fastify + pg: details SQL', url: `${bareUrl}/details` },
      { title: 'bare Fastify + pg: same, prepared', url: `${bareUrl}/details-prepared` },
      { title: 'GET /api/v1/products/details/search', url: b.url + detailsPath },
    ]);
    report('catalogue: product details', b.backend, bareDetails!, [bareDetailsPrepared!, details!]);
    console.log(
      `  overhead-only ratios (app / prepared bare): list ${(list!.rps / bareListPrepared!.rps).toFixed(2)}, details ${(details!.rps / bareDetailsPrepared!.rps).toFixed(2)}`,
    );
  } finally {
    await bare.close();
    await pool.end();
    await cached?.close();
    await b.close();
  }
}
