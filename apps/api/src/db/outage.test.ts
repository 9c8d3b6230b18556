import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import {
  authRoutes,
  catalogRoutes,
  coursesRoutes,
  discordRoutes,
  licencesRoutes,
  ordersRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../test/factories/catalog.ts';
import { createBuyer, sandboxPost } from '../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/http.ts';
import { ownClustersRun, startOwnCluster, type OwnCluster } from '../../test/pg-cluster.ts';
import { startBlackholeProxy } from '../../test/tcp-proxy.ts';
import { CONNECT_TIMEOUT_MS, connectDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';

/*
 * Issue 13: PostgreSQL stopped (`pg_ctl stop -m fast`) under a burst of checkouts and payments. The
 * process must survive, answer 503 service_unavailable quickly while the database is gone, and recover
 * by itself when it is back. The test stops a cluster of its own, never the shared one.
 */
const enabled = ownClustersRun('outage.test.ts', 'its own PostgreSQL cluster');

const SHOPPERS = 8;
/** Paid orders before the cluster is stopped: the stop lands mid-burst, with transactions open. */
const PAID_BEFORE_STOP = 12;
/** Answers each shopper must see after the stop before the burst ends. */
const ANSWERS_WHILE_DOWN = 3;
/**
 * With the database refusing connections an answer takes milliseconds; anything that waited on a
 * timeout would take at least the connect timeout, which a loaded machine never explains away.
 */
const QUICK_MS = CONNECT_TIMEOUT_MS;

type Phase = 'up' | 'stopping' | 'down';
interface Outcome {
  phase: Phase;
  what: 'checkout' | 'pay';
  status: number;
  body: string;
  retryAfter: string | undefined;
  ms: number;
}

/** The contract's 503: a readable message, the stable code, a Retry-After, and no internals. */
function expectUnavailable(res: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}) {
  expect(res.statusCode, res.body).toBe(503);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe('service_unavailable');
  expect(body.error).toMatch(/^[A-Z].{10,}\.$/);
  expect(body.error).not.toMatch(/ECONN|terminat|timeout|postgres|127\.0\.0\.1|select|insert/i);
  expect(String(res.headers['retry-after'])).toMatch(/^\d+$/);
}

describe.skipIf(!enabled)('PostgreSQL outage on a cluster of the test’s own', () => {
  let cluster: OwnCluster;
  let t: TestApp | undefined;
  let vendor: Awaited<ReturnType<typeof createVendor>>;
  const crashes: string[] = [];
  const onCrash = (err: unknown) =>
    crashes.push(
      err instanceof Error
        ? `${err.message} ${err.stack?.split('\n').slice(1, 4).join(' ') ?? ''}`
        : JSON.stringify(err),
    );

  beforeAll(async () => {
    cluster = await startOwnCluster();
    const migrator = connectDatabase(cluster.url, 1);
    await runMigrations(migrator.db);
    await migrator.close();
    t = await startTestApp({}, { databaseUrl: cluster.url, queue: true });
    vendor = await createVendor(t);
    // Anything the process would die of (an unhandled 'error' event, an unhandled rejection) lands here.
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
  });

  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    await t?.close();
    await cluster?.destroy();
  });

  it('survives the cluster stopping mid-burst and answers 503 service_unavailable quickly', async () => {
    const app = t!;
    const products = await Promise.all(
      Array.from({ length: SHOPPERS * 4 }, () => createProduct(app, vendor.id, { amount: 2_500 })),
    );
    const buyers = await Promise.all(Array.from({ length: SHOPPERS }, () => createBuyer(app)));

    let phase: Phase = 'up';
    let paid = 0;
    const outcomes: Outcome[] = [];
    const seenWhileDown = new Array<number>(SHOPPERS).fill(0);
    const record = (what: Outcome['what'], res: LightMyRequestResponse, started: number) => {
      const outcome: Outcome = {
        phase,
        what,
        status: res.statusCode,
        body: res.body,
        retryAfter: res.headers['retry-after'] as string | undefined,
        ms: performance.now() - started,
      };
      outcomes.push(outcome);
      return outcome;
    };

    // Each shopper buys the products in its share, one after another: checkout, then the sandbox's Pay.
    const shopper = async (i: number) => {
      const buyer = buyers[i]!;
      const mine = products.filter((_, n) => n % SHOPPERS === i);
      let next = 0;
      while (seenWhileDown[i]! < ANSWERS_WHILE_DOWN && next < mine.length) {
        let started = performance.now();
        const res = await app.call(ordersRoutes.checkoutProduct, {
          token: buyer.token,
          query: { vendorUrl: vendor.vendorUrl },
          body: { priceId: mine[next]!.priceId },
        });
        const checkout = record('checkout', res, started);
        if (checkout.phase === 'down') seenWhileDown[i]!++;
        if (res.statusCode !== 201) continue;
        started = performance.now();
        const pay = record(
          'pay',
          await sandboxPost(
            app,
            `/sandbox/checkout/${res.json<{ sessionId: string }>().sessionId}/pay`,
          ),
          started,
        );
        if (pay.phase === 'down') seenWhileDown[i]!++;
        if (pay.status === 303) {
          paid++;
          next++;
        }
      }
    };
    const burst = Promise.all(Array.from({ length: SHOPPERS }, (_, i) => shopper(i)));

    await until('paid orders before the stop', async () => paid >= PAID_BEFORE_STOP, 20_000);
    phase = 'stopping';
    await cluster.stop('fast');
    phase = 'down';
    await burst;

    expect(crashes).toEqual([]);
    expect(paid).toBeGreaterThanOrEqual(PAID_BEFORE_STOP);
    // Never a 500: before the stop everything succeeds, after it every answer is the contract's 503.
    for (const o of outcomes) {
      if (o.phase === 'up') expect([201, 303], o.body).toContain(o.status);
      else if (o.status !== 201 && o.status !== 303) {
        expectUnavailable({
          statusCode: o.status,
          body: o.body,
          headers: { 'retry-after': o.retryAfter },
        });
      }
    }
    const down = outcomes.filter((o) => o.phase === 'down');
    expect(down.length).toBeGreaterThanOrEqual(SHOPPERS * ANSWERS_WHILE_DOWN);
    expect(down.every((o) => o.status === 503)).toBe(true);
    const slowest = Math.max(...down.map((o) => o.ms));
    expect(slowest).toBeLessThan(QUICK_MS);

    // Other calls answer the same way; the process itself is fine.
    const buyer = buyers[0]!;
    const started = performance.now();
    for (const res of [
      await app.call(ordersRoutes.purchaseList, { token: buyer.token }),
      await app.call(catalogRoutes.productDetails, { query: { id: products[0]!.id } }),
      await app.call(authRoutes.login, {
        body: { email: 'a@example.com', password: 'not-the-password-1' },
      }),
      // What a purchase delivers, and the vendor's side: each reads the database first.
      await app.call(discordRoutes.userCommunities, { token: buyer.token }),
      await app.call(discordRoutes.userDiscord, { token: buyer.token }),
      await app.call(coursesRoutes.userCourses, { token: buyer.token }),
      await app.call(licencesRoutes.licences, { token: buyer.token }),
      await app.call(licencesRoutes.validateLicence, {
        body: { key: 'TS-7K2QF-9MXWD-4HB8R-ZT3NC', fingerprint: '50012345' },
      }),
      await app.call(ordersRoutes.vendorSales, { token: buyer.token }),
      await app.call(ordersRoutes.vendorRevokeAccess, {
        token: buyer.token,
        params: { id: 'pur_x' },
        body: { reason: 'Down' },
      }),
    ])
      expectUnavailable(res);
    expect(performance.now() - started).toBeLessThan(6 * QUICK_MS);
    const sorted = down.map((o) => o.ms).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const ready = await app.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: expect.any(String), code: 'service_unavailable' });
    expect((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(crashes).toEqual([]);
    console.log(
      `outage: ${paid} paid before the stop, ${down.length} answers while down, ` +
        `median ${median.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`,
    );
  });

  it('recovers by itself when the cluster is back, with every order paid once and the ledger balanced', async () => {
    const app = t!;
    await cluster.start();
    const back = performance.now();
    await until(
      '/readyz 200',
      async () => (await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
      10_000,
    );
    const recoveredMs = performance.now() - back;

    const buyer = await createBuyer(app);
    const product = await createProduct(app, vendor.id, { amount: 4_900 });
    const res = await app.call(ordersRoutes.checkoutProduct, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
      body: { priceId: product.priceId },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { sessionId } = res.json<{ sessionId: string }>();
    expect((await sandboxPost(app, `/sandbox/checkout/${sessionId}/pay`)).statusCode).toBe(303);
    const status = await app.call(ordersRoutes.purchaseStatus, {
      token: buyer.token,
      params: { id: sessionId },
    });
    const purchase = status.json<{ purchase: { status: string; receiptNumber: string } }>()
      .purchase;
    expect(purchase.status).toBe('paid');
    // The receipt goes out through pg-boss: its workers are running again.
    await until(
      'the receipt of the order paid after recovery',
      async () => app.smtp.inbox.some((m) => m.subject.includes(purchase.receiptNumber)),
      15_000,
    );

    const rows = async (query: ReturnType<typeof sql>) =>
      (await app.database.db.execute(query)).rows as Array<Record<string, unknown>>;
    // No purchase paid twice: one sale per paid purchase, none for any other.
    expect(
      await rows(sql`select p.id, p.status, count(l.id) as sales from purchases p
        left join ledger_entries l on l.purchase_id = p.id and l.entry_type = 'sale'
        group by p.id, p.status
        having count(l.id) <> case when p.status = 'paid' then 1 else 0 end`),
    ).toEqual([]);
    // Every payment's set sums to zero, and so does the whole ledger.
    expect(
      await rows(sql`select purchase_id, payment_ref, sum(amount) as total from ledger_entries
        group by purchase_id, payment_ref having sum(amount) <> 0`),
    ).toEqual([]);
    // Each paid purchase owns its product exactly once.
    expect(
      await rows(sql`select p.id from purchases p
        left join ownerships o on o.user_id = p.buyer_id and o.product_id = p.product_id
        where p.status = 'paid' group by p.id having count(o.id) <> 1`),
    ).toEqual([]);
    expect(crashes).toEqual([]);
    console.log(`outage: /readyz 200 again ${recoveredMs.toFixed(0)} ms after the cluster started`);
  });

  it('a job that finishes while the database is gone does not take the process down', async () => {
    const boss = t!.deps.boss!;
    const queueErrors: string[] = [];
    boss.on('error', (err: Error) => queueErrors.push(err.message));
    await boss.createQueue('test.outage', { name: 'test.outage' });
    const handled: number[] = [];
    await boss.work<{ n: number }>(
      'test.outage',
      { pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        handled.push(job!.data.n);
        // The database goes away while the job runs: pg-boss then fails to mark it complete.
        if (job!.data.n === 1) await cluster.stop('fast');
      },
    );
    await boss.send('test.outage', { n: 1 });
    await until(
      'the first job to run and its completion to fail',
      async () => handled.includes(1) && (queueErrors.length > 0 || crashes.length > 0),
      15_000,
    );
    await cluster.start();
    // The queue carries on by itself once the database is back.
    const sends: string[] = [];
    await until(
      'a job sent after the restart to run',
      async () => {
        if (!handled.includes(2))
          await boss
            .send('test.outage', { n: 2 })
            .then(() => sends.push('sent'))
            .catch((err: Error) => sends.push(err.message));
        return handled.includes(2);
      },
      15_000,
    ).catch((err: Error) => {
      // Seen once in CI (session 28, not reproduced in 8 runs): say what the queue was doing.
      const last = (list: string[]) => JSON.stringify(list.slice(-3));
      throw new Error(
        `${err.message}; handled ${JSON.stringify(handled)}, ${sends.length} sends, last ${last(sends)}, ` +
          `queue errors ${queueErrors.length}, last ${last(queueErrors)}`,
      );
    });
    expect(crashes).toEqual([]);
  });

  it('answers 503 within its limits when the database stops answering, and shuts down anyway', async () => {
    const proxy = await startBlackholeProxy({ host: '127.0.0.1', port: cluster.port });
    const limits = { connectTimeoutMs: 1_000, holdLimitMs: 2_000 };
    const bound = limits.holdLimitMs + limits.connectTimeoutMs + 1_500;
    const s = await startTestApp(
      {},
      { databaseUrl: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, queue: true, limits },
    );
    let closed = false;
    try {
      const buyer = await createBuyer(s);
      const list = async () => {
        const started = performance.now();
        const res = await s.call(ordersRoutes.purchaseList, { token: buyer.token });
        return { res, ms: performance.now() - started };
      };
      // Connections sit idle in the pool when the path goes dark; more requests than connections.
      for (const { res } of await Promise.all([list(), list(), list(), list()]))
        expect(res.statusCode).toBe(200);
      proxy.blackhole();
      const dark = await Promise.all(Array.from({ length: 6 }, list));
      for (const { res, ms } of dark) {
        expectUnavailable(res);
        expect(ms).toBeLessThan(bound);
      }
      const ready = await s.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);

      proxy.heal();
      await until(
        '/readyz 200 once the path is back',
        async () => (await s.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
        10_000,
      );
      expect((await list()).res.statusCode).toBe(200);

      // Dark again, with a request holding a connection: shutdown still completes within the limits.
      expect(s.database.pool.idleCount).toBeGreaterThan(0);
      proxy.blackhole();
      const acquired = once(s.database.pool, 'acquire');
      const inFlight = list();
      await acquired;
      const started = performance.now();
      closed = true;
      await s.close();
      const shutdownMs = performance.now() - started;
      expectUnavailable((await inFlight).res);
      expect(shutdownMs).toBeLessThan(bound);
      expect(crashes).toEqual([]);
      console.log(
        `outage (blackholed): slowest 503 ${Math.max(...dark.map((d) => d.ms)).toFixed(0)} ms ` +
          `(limits ${limits.connectTimeoutMs}/${limits.holdLimitMs} ms), shutdown ${shutdownMs.toFixed(0)} ms`,
      );
    } finally {
      if (!closed) await s.close().catch(() => undefined);
      await proxy.close();
    }
  });

  it('shuts down gracefully while the database is down', async () => {
    const app = t!;
    const stopping = performance.now();
    await cluster.stop('fast');
    console.log(`outage: pg_ctl stop took ${(performance.now() - stopping).toFixed(0)} ms`);
    expectUnavailable(
      await app.call(ordersRoutes.purchaseList, { token: (await createBuyerOffline(app)).token }),
    );
    const started = performance.now();
    t = undefined;
    await app.close();
    const ms = performance.now() - started;
    expect(app.database.pool.ended).toBe(true);
    expect(ms).toBeLessThan(5_000);
    expect(crashes).toEqual([]);
    console.log(`outage: shutdown with the database down took ${ms.toFixed(0)} ms`);
    // pg_ctl may wait up to 30 s for the server on a loaded machine; the close itself is bounded above.
  }, 90_000);
});

/** A signed-in buyer who needs no database: the token is verified without one. */
async function createBuyerOffline(t: TestApp) {
  const token = await t.deps.tokens.sign({
    sub: 'usr_offline',
    email: 'offline@example.com',
    roles: ['buyer'],
  });
  return { token };
}
