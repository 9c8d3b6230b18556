/**
 * Issue 19: a vendor's edit is visible in search at once. Each sample saves a published product with a
 * new made-up word in its title (PUT over HTTP) and then searches for the word until the product comes
 * back; the figure is the time from sending the save to the first search that finds it. Search runs as
 * in production, its id cache on (SEARCH_CACHE_SECONDS 60), with buyers' searches going on beside it.
 * Baseline, same run and same load: one plain search request for a word of the catalogue.
 */
import { catalogRoutes, vendorProductsRoutes, type VendorProductInput } from '@tradeshelf/contract';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { seedLargeCatalog } from '../apps/api/src/modules/catalog/seed.ts';
import { newId } from '../apps/api/src/lib.ts';
import { searchQueries } from './catalog.bench.ts';
import { percentile, startBenchApp } from './lib.ts';

const PRODUCTS = Number(process.env.BENCH_EDIT_PRODUCTS ?? 20_000);
const SAMPLES = Number(process.env.BENCH_EDIT_SAMPLES ?? 200);
const TARGET_MS = 1000;

const word = (i: number) =>
  `zq${i.toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, 'x');

export async function run(): Promise<void> {
  const b = await startBenchApp(null, { env: { SEARCH_CACHE_SECONDS: '60' } });
  try {
    await seedLargeCatalog(b.database.db, PRODUCTS);
    await b.database.db.execute(sql`analyze`);
    const userId = newId('usr');
    await b.database.db
      .execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
      values (${userId}, ${`${userId}@bench.test`}, 'locked', array['buyer','vendor']::text[], now())`);
    await b.database.db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
      values (${newId('ven')}, ${userId}, ${'bench-editor'}, 'Bench Editor')`);
    const token = await b.deps.tokens.sign({
      sub: userId,
      email: `${userId}@bench.test`,
      roles: ['buyer', 'vendor'],
    });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = (title: string): VendorProductInput => ({
      kind: 'indicator',
      title,
      summary: 'A product edited by the benchmark.',
      description: 'Edited again and again.',
      tags: ['momentum'],
      platforms: ['tradingview'],
      assetClasses: ['stocks'],
      plans: [{ billing: 'one_time', amount: 4900, currency: 'usd' }],
    });
    const created = await fetch(b.url + vendorProductsRoutes.createVendorProduct.path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body(`Edited ${word(0)} ribbon`)),
    });
    const product = (
      (await created.json()) as { product: { id: string; plans: Array<{ priceId: string }> } }
    ).product;
    const path = `/api/v1/vendor/products/${product.id}`;
    const plans = [
      { priceId: product.plans[0]!.priceId, billing: 'one_time', amount: 4900, currency: 'usd' },
    ];
    const published = await fetch(`${b.url}${path}/publish`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    });
    if (!published.ok) throw new Error(`publish: ${published.status}`);

    const search = async (q: string) => {
      const res = await fetch(`${b.url}${catalogRoutes.search.path}?q=${encodeURIComponent(q)}`);
      if (!res.ok) throw new Error(`search: ${res.status}`);
      return ((await res.json()) as { products: Array<{ id: string }> }).products;
    };

    // Buyers' searches beside the edits, at a steady rate (the cache fills and is dropped by edits).
    const queries = searchQueries();
    for (const q of queries) await fetch(b.url + q);
    const background = autocannon(
      {
        url: b.url,
        connections: 4,
        overallRate: Number(process.env.BENCH_EDIT_BACKGROUND_RPS ?? 150),
        duration: 3600,
        requests: queries.map((p) => ({ method: 'GET' as const, path: p })),
      },
      () => undefined,
    );
    const backgroundDone = new Promise<void>((resolve) => background.on('done', () => resolve()));

    const visible: number[] = [];
    const saves: number[] = [];
    const baseline: number[] = [];
    let retries = 0;
    // Warm-up: statements prepared, JIT warm.
    for (let i = 0; i < 10; i++) {
      await fetch(b.url + path, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...body(`Warm ${word(i)} ribbon`), plans }),
      });
      await search('rsi');
    }
    for (let i = 1; i <= SAMPLES; i++) {
      const w = word(i);
      // The old word is in the cache right before the edit, as a buyer's search would leave it.
      const t0 = performance.now();
      const res = await fetch(b.url + path, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...body(`Edited ${w} ribbon`), plans }),
      });
      if (!res.ok) throw new Error(`save: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      saves.push(performance.now() - t0);
      for (;;) {
        const found = await search(w);
        if (found.some((p) => p.id === product.id)) break;
        if (++retries > SAMPLES * 10) throw new Error('edits do not reach search');
      }
      visible.push(performance.now() - t0);
      const b0 = performance.now();
      await search(i % 2 ? 'rsi divergence' : 'supertrend');
      baseline.push(performance.now() - b0);
    }
    background.stop();
    await backgroundDone;

    const p95 = percentile(visible, 95);
    const base = percentile(baseline, 95);
    console.log(
      `\nvendor edit → visible in search (${b.backend}, ${PRODUCTS} products, ${SAMPLES} edits, ~${process.env.BENCH_EDIT_BACKGROUND_RPS ?? 150} background searches/s)`,
    );
    const row = (title: string, values: number[]) =>
      `  ${title.padEnd(44)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms  ratio ${(percentile(values, 95) / base).toFixed(2)}`;
    console.log(row('plain search request', baseline) + '  (baseline)');
    console.log(row('save (PUT) alone', saves));
    console.log(row('save → found by search', visible));
    console.log(
      `  searches that missed the edit: ${retries}; target p95 ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'NOT met'} (${p95.toFixed(1)} ms)`,
    );
  } finally {
    await b.close();
  }
}
