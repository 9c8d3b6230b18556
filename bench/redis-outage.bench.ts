import os from 'node:os';
import { authRoutes } from '@tradeshelf/contract';
import { startOwnRedis } from '../apps/api/test/redis-server.ts';
import { newId } from '../apps/api/src/lib.ts';
import { hashPassword } from '../apps/api/src/modules/auth/passwords.ts';
import { insertUser } from '../apps/api/src/modules/users/repository.ts';
import { freePort, percentile, startBenchApp } from './lib.ts';

const LOGINS = Number(process.env.BENCH_REDIS_LOGINS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
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
      ((await (await fetch(`${url}/readyz`)).json()) as { rateLimitStore?: string }).rateLimitStore;
    const waitFor = async (url: string, want: string) => {
      const deadline = Date.now() + 15_000;
      while ((await store(url)) !== want) {
        if (Date.now() > deadline) throw new Error(`/readyz never said ${want}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    /** Logins in a row; the first after a change is reported alone (it may pay the command timeout). */
    const phase = async (url: string, n: number) => {
      const first = await login(url);
      const runs = [];
      for (let i = 0; i < n; i++) runs.push(await login(url));
      return { first, runs };
    };
    const sum = (title: string, parts: Array<Awaited<ReturnType<typeof phase>>>) => {
      const all = parts.flatMap((p) => [p.first, ...p.runs]);
      const ms = parts.flatMap((p) => p.runs.map((r) => r.ms));
      return {
        title,
        first: Math.max(...parts.map((p) => p.first.ms)),
        p50: percentile(ms, 50),
        p95: percentile(ms, 95),
        failed: all.filter((r) => r.status !== 200).length,
      };
    };

    await waitFor(b.url, 'redis');
    for (let i = 0; i < WARMUP; i++) await login(b.url);
    // Alternating rounds, so the machine's background load lands on every case alike.
    const per = Math.ceil(LOGINS / ROUNDS);
    const up: Array<Awaited<ReturnType<typeof phase>>> = [];
    const killed: typeof up = [];
    const frozenRuns: typeof up = [];
    for (let round = 0; round < ROUNDS; round++) {
      up.push(await phase(b.url, per));
      await redis.kill();
      killed.push(await phase(b.url, per));
      await redis.start();
      await waitFor(b.url, 'redis');
      redis.freeze();
      frozenRuns.push(await phase(b.url, per));
      redis.thaw();
      await waitFor(b.url, 'redis');
    }
    const rows = [
      sum('Redis answering', up),
      sum('Redis killed (refused)', killed),
      sum('Redis frozen (SIGSTOP)', frozenRuns),
    ];

    // Started while Redis is down: a second node on the same database, its Redis gone or frozen.
    const shared = process.env.DATABASE_URL ? { sharedDbUrl: b.dbUrl } : {};
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    let t0 = performance.now();
    const refused = await startBenchApp(null, { ...shared, env: { ...env, REDIS_URL: nobody } });
    const refusedStart = performance.now() - t0;
    extra.push(refused);
    rows.push(sum('started with Redis refusing', [await phase(refused.url, LOGINS)]));

    redis.freeze();
    t0 = performance.now();
    const frozen = await startBenchApp(null, { ...shared, env });
    const frozenStart = performance.now() - t0;
    extra.push(frozen);
    rows.push(sum('started with Redis frozen', [await phase(frozen.url, LOGINS)]));
    redis.thaw();

    const base = rows[0]!;
    console.log(
      `\nlogin while the rate-limit Redis is unreachable (${b.backend}, ${os.cpus().length} cores, ` +
        `Node ${process.version}; ${LOGINS} sequential logins a case, ${ROUNDS} alternating rounds; ` +
        `"first": slowest first login after a change)`,
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
