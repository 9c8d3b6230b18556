/**
 * Outbound webhook fan-out (issue 33, ADR 057), with the app as `npm start` runs it: pg-boss jobs and
 * workers in this process, the real webhook engine posting signed requests over loopback HTTP.
 *
 * One vendor with 50 endpoints (loopback receivers; `WEBHOOKS_ALLOW_PRIVATE` is the sandbox
 * allowance `e2e/developers.spec.ts` uses) subscribed to `sale.completed`. 1 000 buyers check out and
 * pay on the payment sandbox's hosted page (8 in flight), which delivers the signed payment webhook
 * the app applies: the sale commits with its domain event, the developers subscriber fans it out
 * into one outbox message per endpoint, and the engine delivers them. Per delivery: from the sale's
 * commit (the hosted page's answer, which follows it) to the moment the receiver got the request. Printed: p50/p95/max,
 * deliveries per second over the whole fan-out, duplicates (at-least-once, expected 0 here).
 *
 * Baseline, same run, same database: bare pg-boss job inserts, one `send` per delivery (50 000, 8
 * in flight): the cost of merely queueing one job per delivery, which a job-per-webhook design
 * would pay before sending anything. The ratio is fan-out deliveries/s over bare inserts/s.
 *
 * `npm run bench webhooks`; needs DATABASE_URL (pg-boss), skipped without. `BENCH_WEBHOOK_SALES`
 * and `BENCH_WEBHOOK_ENDPOINTS` scale it (defaults 1 000 and 50).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { startQueue } from '../apps/api/src/jobs/queue.ts';
import { newId } from '../apps/api/src/lib.ts';
import { insertEndpoint } from '../apps/api/src/webhooks/store.ts';
import { percentile, startBenchApp } from './lib.ts';
import { openCheckout, payCheckout } from './sandbox-checkout.ts';

const SALES = Number(process.env.BENCH_WEBHOOK_SALES ?? 1_000);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 50);
const IN_FLIGHT = 8;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function inLanes(n: number, lanes: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export async function run(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log('\nwebhooks: skipped (needs DATABASE_URL: pg-boss runs the delivery jobs)');
    return;
  }
  // Arrivals: purchase id → receive times (ms since epoch), one per endpoint path.
  const arrivals = new Map<string, number[]>();
  let received = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        data: { sale: { id: string } };
      };
      const list = arrivals.get(body.data.sale.id) ?? [];
      list.push(at);
      arrivals.set(body.data.sale.id, list);
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;

  const bench = await startBenchApp(null, {
    queue: true,
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
  });
  try {
    const db = bench.deps.database.db;
    const vendorUser = newId('usr');
    const vendorId = newId('ven');
    const productId = newId('prd');
    const priceId = newId('price');
    await db.execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
      values (${vendorUser}, 'hooks@bench.test', 'x', array['buyer','vendor'], now())`);
    await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio)
      values (${vendorId}, ${vendorUser}, 'hook-bench', 'Hook Bench', '')`);
    await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary,
        description, is_active, default_price_id, sort_amount)
      values (${productId}, ${vendorId}, 'indicator', 'indicators', 'hook-bench', 'Hook Bench', '', '',
        true, ${priceId}, 1000)`);
    await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
      values (${priceId}, ${productId}, 1000, 'usd', 'one_time', 0)`);
    for (let i = 0; i < ENDPOINTS; i++)
      await insertEndpoint(
        db,
        { kind: 'vendor', id: vendorId },
        {
          url: `http://127.0.0.1:${port}/hook/${i}`,
          description: '',
          eventTypes: ['sale.completed'],
          enabled: true,
        },
        bench.deps.webhooks.newSecret().sealed,
      );

    const tokens: string[] = [];
    for (let i = 0; i < SALES; i++) {
      const id = `usr_hook_${i}`;
      await db.execute(sql`insert into users (id, email, password_hash, email_verified_at)
        values (${id}, ${`hook${i}@bench.test`}, 'x', now())`);
      tokens.push(
        await bench.deps.tokens.sign({ sub: id, email: `hook${i}@bench.test`, roles: ['buyer'] }),
      );
    }
    const sessions: string[] = [];
    await inLanes(SALES, IN_FLIGHT, async (i) => {
      sessions[i] = await openCheckout(bench.url, tokens[i]!, 'hook-bench', priceId);
    });

    const expected = SALES * ENDPOINTS;
    // The sandbox delivers the signed payment webhook before its page answers, and the app answers
    // that webhook after the sale's transaction commits: the page's answer is just after the commit.
    // (`paid_at` is the provider's event time, in whole seconds: too coarse to time from.)
    const committedAt = new Map<string, number>();
    const started = Date.now();
    await inLanes(SALES, IN_FLIGHT, async (i) => {
      await payCheckout(bench.url, sessions[i]!);
      committedAt.set(sessions[i]!, Date.now());
    });
    const paidIn = Date.now() - started;
    const deadline = Date.now() + 30 * 60_000;
    while (received < expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const fanOutMs = Date.now() - started;

    const paid = (
      await db.execute<{ id: string; session_id: string }>(
        sql`select id, session_id from purchases where vendor_id = ${vendorId} and paid_at is not null`,
      )
    ).rows;
    const latencies: number[] = [];
    let duplicates = 0;
    for (const p of paid) {
      const times = arrivals.get(p.id) ?? [];
      duplicates += Math.max(0, times.length - ENDPOINTS);
      const commit = committedAt.get(p.session_id)!;
      for (const at of times) latencies.push(at - commit);
    }

    // Baseline: bare job inserts into a queue of its own on the same database, same lanes.
    const boss = await startQueue(bench.dbUrl, quiet);
    await boss.createQueue('bench.bare');
    const bareStart = Date.now();
    await inLanes(expected, IN_FLIGHT, async (i) => {
      await boss.send('bench.bare', { i });
    });
    const bareMs = Date.now() - bareStart;
    await boss.stop({ graceful: false, wait: true });

    const perSecond = (n: number, ms: number) => (n / ms) * 1000;
    console.log(
      `\nwebhooks (${bench.backend}, ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.version})`,
    );
    console.log(
      `  ${SALES} sales × ${ENDPOINTS} endpoints: ${received}/${expected} delivered, ${duplicates} duplicates; payments took ${(paidIn / 1000).toFixed(1)} s`,
    );
    console.log(
      `  from the sale's commit: p50 ${(percentile(latencies, 50) / 1000).toFixed(2)} s, p95 ${(percentile(latencies, 95) / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s`,
    );
    const fanRate = perSecond(received, fanOutMs);
    const bareRate = perSecond(expected, bareMs);
    console.log(
      `  fan-out: ${fanRate.toFixed(0)} deliveries/s over ${(fanOutMs / 1000).toFixed(1)} s (first payment to last delivery)`,
    );
    console.log(
      `  bare pg-boss send, ${expected} jobs, ${IN_FLIGHT} in flight: ${bareRate.toFixed(0)} jobs/s (${(bareMs / 1000).toFixed(1)} s)  (baseline)`,
    );
    console.log(`  ratio (deliveries/s ÷ bare inserts/s): ${(fanRate / bareRate).toFixed(2)}`);
    if (received < expected) throw new Error(`only ${received} of ${expected} deliveries arrived`);
  } finally {
    await bench.close();
    server.close();
  }
}
