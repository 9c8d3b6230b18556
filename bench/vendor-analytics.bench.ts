/**
 * Vendor analytics (issue 19, ADR 043): GET /api/v1/vendor/analytics over a vendor with about
 * 1 000 000 ledger entries (plus other vendors' noise), target p95 <= 200 ms for a year.
 *
 * Seeding is set-based SQL (`generate_series`) on the real database, in chunks, through the same
 * ledger_entries triggers the app's payments go through, so the daily rollup is built the way it is
 * kept. Per purchase: sale, platform fee and vendor share; every 5th is referred (a commission
 * line); every 10th is refunded in full (a reversal of each of its lines). Two years of dates.
 *
 * Measured in the same run, one request at a time (a vendor opens the screen; it is not a load
 * test), after a warm-up:
 * - the endpoint for the last 365 days by day, week and month, and for one product;
 * - baseline 1: GET /api/v1/user/profile with the same token (a trivial indexed read through the
 *   same HTTP stack): the ratio says what the analytics add over any authenticated call;
 * - baseline 2: the same year's totals and daily series summed from ledger_entries directly
 *   (no rollup, the ledger's own indexes), i.e. what the rollup saves.
 *
 * `npm run bench vendor-analytics`; needs DATABASE_URL (a throwaway database), skipped without.
 * BENCH_VA_PURCHASES (default 280 000 → 1 008 000 entries), BENCH_VA_SAMPLES (default 200).
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { newId } from '../apps/api/src/lib.ts';
import { percentile, startBenchApp } from './lib.ts';

const PURCHASES = Number(process.env.BENCH_VA_PURCHASES ?? 280_000);
const NOISE_VENDORS = 5;
const NOISE_PURCHASES = 40_000;
const PRODUCTS = 20;
const SAMPLES = Number(process.env.BENCH_VA_SAMPLES ?? 200);
const CHUNK = 40_000;
const TARGET_MS = 200;

type Bench = Awaited<ReturnType<typeof startBenchApp>>;

export async function seedVendor(
  b: Bench,
  buyerId: string,
  affiliateId: string,
  purchases: number,
) {
  const db = b.database.db;
  const userId = newId('usr');
  const vendorId = newId('ven');
  await db.execute(sql`insert into users (id, email, password_hash, roles)
    values (${userId}, ${`${userId}@bench.example`}, 'x', array['buyer','vendor'])`);
  await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
    values (${vendorId}, ${userId}, ${vendorId}, ${`Bench ${vendorId}`})`);
  const products: Array<{ id: string; price: string }> = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const id = newId('prd');
    const price = newId('price');
    await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, default_price_id, sort_amount)
      values (${id}, ${vendorId}, 'indicator', 'indicators', ${id}, ${`Bench product ${i + 1}`}, ${price}, ${1000 + i * 500})`);
    await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
      values (${price}, ${id}, ${1000 + i * 500}, 'usd', 'one_time', 0)`);
    products.push({ id, price });
  }
  const ids = sql.param(products.map((p) => p.id));
  const prices = sql.param(products.map((p) => p.price));
  for (let start = 0; start < purchases; start += CHUNK) {
    const end = Math.min(purchases, start + CHUNK) - 1;
    await db.transaction(async (tx) => {
      // Purchase g: paid (g % 730) days ago, product (g / 730) % 20 (so every product sells on every
      // day); g % 5 = 0 referred; g % 10 = 0 refunded.
      await tx.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider, idempotency_key,
          request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
          affiliate_user_id, affiliate_bps, expires_at, paid_at, refunded_at, created_at)
        select ${vendorId} || '_' || g, ${buyerId}, ${vendorId}, 'sandbox', ${vendorId} || '_' || g, 'x',
          case when g % 10 = 0 then 'refunded' else 'paid' end, 'product',
          (${ids}::text[])[1 + (g / 730) % ${PRODUCTS}], (${prices}::text[])[1 + (g / 730) % ${PRODUCTS}],
          'one_time', 'usd', 1000 + ((g / 730) % ${PRODUCTS}) * 500, 1000 + ((g / 730) % ${PRODUCTS}) * 500,
          case when g % 5 = 0 then ${affiliateId} end, case when g % 5 = 0 then 2000 end,
          t, t, case when g % 10 = 0 then t + interval '2 days' end, t
        from generate_series(${start}::int, ${end}::int) g,
          lateral (select now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second' as t) at`);
      await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type, account_type,
          account_id, amount, currency, created_at)
        select 'led_' || p.id || '_' || l.entry_type, p.id, 'pi_' || p.id, l.entry_type, l.account_type,
          l.account_id, l.amount, 'usd', p.paid_at
        from purchases p,
          lateral (values
            ('sale', 'clearing', 'sandbox', -p.total),
            ('platform_fee', 'platform', 'platform', p.total / 10),
            ('vendor_share', 'vendor', p.vendor_id, p.total - p.total / 10 - coalesce(p.total * p.affiliate_bps / 10000, 0)),
            ('affiliate_commission', 'affiliate', p.affiliate_user_id, p.total * p.affiliate_bps / 10000)
          ) l(entry_type, account_type, account_id, amount)
        where p.vendor_id = ${vendorId} and p.id = any(array(
            select ${vendorId} || '_' || g from generate_series(${start}::int, ${end}::int) g))
          and l.account_id is not null`);
      await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type, account_type,
          account_id, amount, currency, created_at)
        select 'led_r_' || l.id, l.purchase_id, 'refund:' || l.payment_ref, 'refund_reversal', l.account_type,
          l.account_id, -l.amount, l.currency, p.refunded_at
        from purchases p join ledger_entries l on l.purchase_id = p.id
        where p.vendor_id = ${vendorId} and p.status = 'refunded' and p.id = any(array(
            select ${vendorId} || '_' || g from generate_series(${start}::int, ${end}::int) g))`);
    });
  }
  return { userId, vendorId, productIds: products.map((p) => p.id) };
}

async function timed(samples: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

export async function run(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log('\nvendor analytics: skipped (needs DATABASE_URL: a real PostgreSQL)');
    return;
  }
  const b = await startBenchApp();
  try {
    const db = b.database.db;
    const buyerId = newId('usr');
    const affiliateId = newId('usr');
    for (const id of [buyerId, affiliateId])
      await db.execute(sql`insert into users (id, email, password_hash, roles)
        values (${id}, ${`${id}@bench.example`}, 'x', array['buyer'])`);
    const seedStarted = performance.now();
    const main = await seedVendor(b, buyerId, affiliateId, PURCHASES);
    for (let i = 0; i < NOISE_VENDORS; i++)
      await seedVendor(b, buyerId, affiliateId, NOISE_PURCHASES);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const count = async (q: ReturnType<typeof sql>) =>
      Number((await db.execute<{ n: string }>(q)).rows[0]!.n);
    const mine =
      await count(sql`select count(*) as n from ledger_entries l join purchases p on p.id = l.purchase_id
      where p.vendor_id = ${main.vendorId}`);
    const all = await count(sql`select count(*) as n from ledger_entries`);
    const rollupRows = await count(
      sql`select count(*) as n from vendor_sales_daily where vendor_id = ${main.vendorId}`,
    );

    const token = await b.deps.tokens.sign({
      sub: main.userId,
      email: 'bench@example.com',
      roles: ['buyer', 'vendor'],
    });
    const headers = { authorization: `Bearer ${token}` };
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const get = (path: string) => async () => {
      const res = await fetch(b.url + path, { headers });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const analytics = (q: string) => get(`/api/v1/vendor/analytics?from=${from}&to=${to}${q}`);

    // Correctness first: the endpoint's year equals the ledger summed directly.
    const raw = `select coalesce(sum(-l.amount) filter (where l.entry_type = 'sale'), 0)::int8 as gross,
        coalesce(sum(l.amount) filter (where l.account_type = 'vendor'), 0)::int8 as net,
        count(*) filter (where l.entry_type = 'sale') as sales
      from ledger_entries l join purchases p on p.id = l.purchase_id
      where p.vendor_id = $1 and l.created_at >= $2::date::timestamp at time zone 'UTC'
        and l.created_at < ($3::date + 1)::timestamp at time zone 'UTC'`;
    const rawSeries = `select (l.created_at at time zone 'UTC')::date as day,
        sum(-l.amount) filter (where l.entry_type = 'sale') as gross,
        sum(l.amount) filter (where l.account_type = 'vendor') as net
      from ledger_entries l join purchases p on p.id = l.purchase_id
      where p.vendor_id = $1 and l.created_at >= $2::date::timestamp at time zone 'UTC'
        and l.created_at < ($3::date + 1)::timestamp at time zone 'UTC'
      group by 1 order by 1`;
    const pool = b.database.pool;
    const expected = (await pool.query(raw, [main.vendorId, from, to])).rows[0] as {
      gross: string;
      net: string;
      sales: string;
    };
    const answer = (await (
      await fetch(`${b.url}/api/v1/vendor/analytics?from=${from}&to=${to}`, { headers })
    ).json()) as { totals: Array<{ gross: number; net: number; sales: number }> };
    const got = answer.totals[0]!;
    if (
      got.gross !== Number(expected.gross) ||
      got.net !== Number(expected.net) ||
      got.sales !== Number(expected.sales)
    )
      throw new Error(`rollup disagrees with the ledger: ${JSON.stringify({ got, expected })}`);

    // Straight after a million writes, before any vacuum has cleaned the rollup's old row versions.
    for (let i = 0; i < 20; i++) await analytics('&interval=day')();
    const unvacuumed = await timed(SAMPLES, analytics('&interval=day'));
    // Steady state: autovacuum keeps up with a day's payments; here it is run once by hand.
    await db.execute(sql`vacuum analyze vendor_sales_daily`);
    for (let i = 0; i < 20; i++) await analytics('&interval=day')();
    for (let i = 0; i < 20; i++) await get('/api/v1/user/profile')();
    const profile = await timed(SAMPLES, get('/api/v1/user/profile'));
    const day = await timed(SAMPLES, analytics('&interval=day'));
    const week = await timed(SAMPLES, analytics('&interval=week'));
    const month = await timed(SAMPLES, analytics('&interval=month'));
    const product = await timed(
      SAMPLES,
      analytics(`&interval=day&productId=${main.productIds[3]}`),
    );
    const direct = await timed(Math.min(SAMPLES, 5), async () => {
      await pool.query(raw, [main.vendorId, from, to]);
      await pool.query(rawSeries, [main.vendorId, from, to]);
    });

    const p95 = (xs: number[]) => percentile(xs, 95);
    const p50 = (xs: number[]) => percentile(xs, 50);
    const base = p95(profile);
    console.log(
      `\nvendor analytics (${b.backend}, ${os.cpus().length} cores, Node ${process.version}): ${mine.toLocaleString('en')} ledger entries for the vendor, ${all.toLocaleString('en')} in all (seeded in ${seedSeconds.toFixed(0)} s); ${rollupRows.toLocaleString('en')} rollup rows for the vendor; ${SAMPLES} sequential requests each, last 365 days; target p95 <= ${TARGET_MS} ms`,
    );
    const row = (title: string, xs: number[], note = '') =>
      console.log(
        `  ${title.padEnd(60)} p50 ${p50(xs).toFixed(1).padStart(7)} ms  p95 ${p95(xs).toFixed(1).padStart(7)} ms  ratio ${(p95(xs) / base).toFixed(2).padStart(6)}${note}`,
      );
    row('baseline: GET /api/v1/user/profile', profile, '  (baseline)');
    const target = (xs: number[]) => (p95(xs) <= TARGET_MS ? '  ok' : '  OVER TARGET');
    row('GET /vendor/analytics, year by day', day, target(day));
    row('GET /vendor/analytics, year by week', week, target(week));
    row('GET /vendor/analytics, year by month', month, target(month));
    row('GET /vendor/analytics, year by day, one product', product, target(product));
    row('same, straight after seeding (before any vacuum)', unvacuumed, target(unvacuumed));
    row('baseline: the same year summed from ledger_entries (SQL only)', direct);
  } finally {
    await b.close();
  }
}
