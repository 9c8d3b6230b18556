/**
 * One measurement of checkout and payment-event throughput against the tree at `argv[2]` (this
 * checkout, or an older commit's worktree): prints one JSON line. `orders.bench.ts` runs it for both
 * trees in one run, so the figures compare code, not machines or moments. It reaches the app only
 * through HTTP and table rows that both trees share.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
// Types only: the modules themselves are loaded from the measured tree.
import type * as seedHere from '../apps/api/src/db/seed.ts';
import type * as libHere from './lib.ts';
// HTTP only, nothing of the app: the same for every tree measured.
import { openCheckout, payCheckout } from './sandbox-checkout.ts';

const root = path.resolve(process.argv[2] ?? '.');
const buyers = Number(process.env.BENCH_BUYERS ?? 400);
const concurrency = 8;

const lib = (await import(path.join(root, 'bench/lib.ts'))) as typeof libHere;
const seed = (await import(path.join(root, 'apps/api/src/db/seed.ts'))) as typeof seedHere;

const bench = await lib.startBenchApp(null);
const db = bench.deps.database.db;
await seed.seedAll(db);

const prices = (
  await db.execute<{ id: string; vendor_url: string }>(sql`
    select pr.id, v.vendor_url from prices pr
      join products p on p.id = pr.product_id join vendors v on v.id = p.vendor_id
    where pr.scheme = 'one_time' and pr.is_active and p.is_active
      and not exists (select 1 from product_prerequisites q where q.product_id = p.id)
    order by pr.id`)
).rows;

// Buyers are rows plus tokens from the app's own signer: argon2 hashing would dominate otherwise.
const people: Array<{ id: string; token: string }> = [];
for (let i = 0; i < buyers; i++) {
  const id = `usr_bench_${i}`;
  await db.execute(sql`insert into users (id, email, password_hash, email_verified_at)
    values (${id}, ${`bench${i}@bench.test`}, 'x', now())`);
  const token = await bench.deps.tokens.sign({
    sub: id,
    email: `bench${i}@bench.test`,
    roles: ['buyer'],
  });
  people.push({ id, token });
}

/** Runs `work` for every index with `concurrency` in flight; returns operations per second. */
async function throughput(n: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

const sessions: string[] = [];
const checkoutRate = await throughput(buyers, async (i) => {
  const price = prices[i % prices.length]!;
  sessions[i] = await openCheckout(bench.url, people[i]!.token, price.vendor_url, price.id);
});

// Paying on the sandbox's hosted page sends the signed webhook the app applies (fulfilment,
// ledger, events, receipt): the payment-event path end to end.
const paymentsStarted = performance.now();
await throughput(buyers, (i) => payCheckout(bench.url, sessions[i]!));

// The figure includes delivering every payment's events to their subscribers (a tree with domain
// events): work a payment leaves behind counts against it.
const events = (bench.deps as { events?: { deliverDue(d: typeof db): Promise<unknown> } }).events;
// Jobs the payments started (delivery runs) finish first; then whatever is still due.
await (bench.deps.jobs as { settle?: () => Promise<void> }).settle?.();
await events?.deliverDue(db);
const paymentRate = buyers / ((performance.now() - paymentsStarted) / 1000);
if (events) {
  const left = await db.execute<{ subscriber: string; last_error: string | null }>(
    sql`select subscriber, last_error from event_deliveries where delivered_at is null`,
  );
  if (left.rows.length) throw new Error(`undelivered: ${JSON.stringify(left.rows.slice(0, 3))}`);
}

const paid = Number(
  (
    await db.execute<{ n: string }>(
      sql`select count(*) as n from purchases where status = 'paid' and buyer_id like 'usr_bench_%'`,
    )
  ).rows[0]!.n,
);
await bench.close();
if (paid !== buyers) throw new Error(`${paid} of ${buyers} purchases paid`);
console.log(JSON.stringify({ checkoutRate, paymentRate, backend: bench.backend }));
process.exit(0);
