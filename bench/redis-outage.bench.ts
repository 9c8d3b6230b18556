import os from 'node:os';
import { authRoutes } from '@tradeshelf/contract';
import { startOwnRedis } from '../apps/api/test/redis-server.ts';
import { newId } from '../apps/api/src/lib.ts';
import { hashPassword } from '../apps/api/src/modules/auth/passwords.ts';
import { insertUser } from '../apps/api/src/modules/users/repository.ts';
import { freePort, percentile, startBenchApp } from './lib.ts';

const LOGINS = Number(process.env.BENCH_REDIS_LOGINS ?? 100);
const WARMUP = 10;
const PASSWORD = 'bench-password-1';

/**
 * Issue 26 (ADR 050): login answer times, one request at a time over real HTTP, with the rate-limit
 * Redis (a server of the bench's own) answering — the baseline — then killed (connections refused),
 * frozen with SIGSTOP (connections accepted, nothing answered), and with the app started while it
 * was down. Before the fix these took 6–15 s and answered 500, or hung.
 */
export async function run(): Promise<void> {
  const redis = await startOwnRedis();
  const env = { REDIS_URL: redis.url, TRUST_PROXY: 'true' };
  const started = performance.now();
  const b = await startBenchApp(null, { env });
  const upStart = performance.now() - started;
  const extra: Array<{ close(): Promise<void> }> = [];
  try {
    const email = `redis-bench-${Date.now()}@example.com`;
    await insertUser(b.database.db, {
      id: newId('usr'),
      email,
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date(),
    });

    let ip = 0;
    const login = async (url: string) => {
      ip++;
      const t0 = performance.now();
      const res = await fetch(url + authRoutes.login.path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // A new client address per request, so the per-address limit stays out of the figures.
          'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
        },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      await res.arrayBuffer();
      return { ms: performance.now() - t0, status: res.status };
    };
    const store = async (url: string) =>
      ((await (await fetch(`${url}/readyz`)).json()) as { rateLimitStore?: string })
        .rateLimitStore;
    const waitFor = async (url: string, want: string) => {
      const deadline = Date.now() + 15_000;
      while ((await store(url)) !== want) {
        if (Date.now() > deadline) throw new Error(`/readyz never said ${want}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    /** First login after the change (it may pay the command timeout once), then LOGINS more. */
    const phase = async (title: string, url: string) => {
      const first = await login(url);
      const runs = [];
      for (let i = 0; i < LOGINS; i++) runs.push(await login(url));
      const failed = [first, ...runs].filter((r) => r.status !== 200).length;
      const ms = runs.map((r) => r.ms);
      return { title, first: first.ms, p50: percentile(ms, 50), p95: percentile(ms, 95), failed };
    };

    await waitFor(b.url, 'redis');
    for (let i = 0; i < WARMUP; i++) await login(b.url);
    const rows = [await phase('Redis answering', b.url)];

    await redis.kill();
    rows.push(await phase('Redis killed (refused)', b.url));
    await redis.start();
    await waitFor(b.url, 'redis');
    rows.push(await phase('Redis back', b.url));

    redis.freeze();
    rows.push(await phase('Redis frozen (SIGSTOP)', b.url));
    redis.thaw();
    await waitFor(b.url, 'redis');

    // Started while Redis is down: a second node on the same database, its Redis gone or frozen.
    const shared = process.env.DATABASE_URL ? { sharedDbUrl: b.dbUrl } : {};
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    let t0 = performance.now();
    const refused = await startBenchApp(null, { ...shared, env: { ...env, REDIS_URL: nobody } });
    const refusedStart = performance.now() - t0;
    extra.push(refused);
    rows.push(await phase('started with Redis refusing', refused.url));

    redis.freeze();
    t0 = performance.now();
    const frozen = await startBenchApp(null, { ...shared, env });
    const frozenStart = performance.now() - t0;
    extra.push(frozen);
    rows.push(await phase('started with Redis frozen', frozen.url));
    redis.thaw();

    const base = rows[0]!;
    console.log(
      `\nlogin while the rate-limit Redis is unreachable (${b.backend}, ${os.cpus().length} cores, ` +
        `Node ${process.version}; ${LOGINS} sequential logins a row)`,
    );
    for (const r of rows)
      console.log(
        `  ${r.title.padEnd(30)} first ${r.first.toFixed(0).padStart(5)} ms  p50 ${r.p50.toFixed(0).padStart(4)} ms` +
          `  p95 ${r.p95.toFixed(0).padStart(4)} ms  ratio p95 ${(r.p95 / base.p95).toFixed(2)}` +
          `  non-200 ${r.failed}${r === base ? '  (baseline)' : ''}`,
      );
    console.log(
      `  app start: Redis answering ${upStart.toFixed(0)} ms (new database), refusing ` +
        `${refusedStart.toFixed(0)} ms, frozen ${frozenStart.toFixed(0)} ms`,
    );
  } finally {
    redis.thaw();
    for (const e of extra) await e.close();
    await b.close();
    await redis.stop();
  }
}
