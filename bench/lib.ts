import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { createDeps, type AppDeps } from '../apps/api/src/deps.ts';
import { startQueue } from '../apps/api/src/jobs/queue.ts';
import { startWorkers, workerDeps } from '../apps/api/src/jobs/workers.ts';
import type { FastifyInstance } from 'fastify';
import { MemoryRateLimitStore } from '../apps/api/src/platform/rate-limit.ts';
import type { WebApp } from '../apps/api/src/platform/web.ts';
import { freePort } from '../apps/api/test/http.ts';

export { freePort };

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The real app on a real socket: DATABASE_URL when set, else a fresh embedded PostgreSQL. */
export async function startBenchApp(
  web: WebApp | null = null,
  options: {
    beforeListen?: (app: FastifyInstance, deps: AppDeps) => Promise<void> | void;
    /** Extra configuration, e.g. SEARCH_CACHE_SECONDS. */
    env?: Record<string, string>;
    /** A second app on the database of a first one (PostgreSQL only): no create, no drop. */
    sharedDbUrl?: string;
    /** Jobs through pg-boss with a worker in this process, as `npm start` runs them. */
    queue?: boolean;
    /** Listen on this port (default: any free one); `PORT` and `PUBLIC_URL` say it to the app. */
    port?: number;
  } = {},
) {
  // On a real server, a throwaway database so benchmarks never touch real data.
  let dbUrl = options.sharedDbUrl ?? process.env.DATABASE_URL;
  const dbName = `tradeshelf_bench_${process.pid}`;
  const ownsDb = !options.sharedDbUrl && !process.env.BENCH_REUSE_DB;
  if (dbUrl && ownsDb) {
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName}`);
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(dbUrl);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  // Pages and links use the public origin (ADR 049): the address the bench reaches the app at.
  const port = options.port ?? (await freePort());
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    APP_ENV: 'local',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-bench-')),
    LOG_LEVEL: 'silent',
    // Every bench request comes from 127.0.0.1: the per-address search limit would measure 429s.
    SEARCH_LIMIT_PER_IP_MINUTE: '1000000',
    ...options.env,
  });
  const opened = await openDatabase(config);
  const boss = options.queue ? await startQueue(opened.url, quiet) : null;
  const deps = createDeps(config, opened.database, quiet, {
    // Counts in memory unless the bench names a Redis of its own (redis-outage.bench.ts).
    ...(options.env?.REDIS_URL ? {} : { rateLimitStore: new MemoryRateLimitStore() }),
    boss,
  });
  if (boss) await startWorkers(boss, workerDeps(deps, quiet));
  const app = await buildApp(deps, { web });
  await options.beforeListen?.(app, deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    deps,
    url: `http://127.0.0.1:${port}`,
    database: opened.database,
    dbUrl: opened.url,
    backend: config.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite',
    async close() {
      await app.close();
      await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
      await deps.close();
      await opened.database.close();
      await opened.embedded?.stop();
      if (process.env.DATABASE_URL && ownsDb) {
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    },
  };
}

export async function measure(
  title: string,
  url: string,
  headers: Record<string, string> = {},
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
  extra: Partial<autocannon.Options> = {},
): Promise<{ title: string; rps: number; p99: number }> {
  const result = await autocannon({ url, headers, connections: 16, duration: seconds, ...extra });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${title}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  }
  return { title, rps: result.requests.average, p99: result.latency.p99 };
}

/**
 * Several endpoints measured side by side: alternating rounds, so a background burst (autovacuum, GC, the
 * other core's load) lands on all of them. Figures are means over rounds; p99 is the worst round's.
 */
export async function measureSideBySide(
  /** `options`: autocannon's, e.g. `requests` for POST bodies. */
  targets: Array<{ title: string; url: string; options?: Partial<autocannon.Options> }>,
  rounds = Number(process.env.BENCH_ROUNDS ?? 4),
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
): Promise<Measured[]> {
  const per = Math.max(1, Math.round((seconds / rounds) * 2) / 2);
  // Warm each (JIT, pools, prepared statements, caches) before anything counts.
  for (const t of targets) await measure(t.title, t.url, {}, 1, t.options);
  const runs: Measured[][] = targets.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [j, t] of targets.entries())
      runs[j]!.push(await measure(t.title, t.url, {}, per, t.options));
  }
  return runs.map((ms, j) => ({
    title: targets[j]!.title,
    rps: ms.reduce((n, m) => n + m.rps, 0) / ms.length,
    p99: Math.max(...ms.map((m) => m.p99)),
  }));
}
type Measured = { title: string; rps: number; p99: number };

export function report(
  name: string,
  backend: string,
  baseline: { title: string; rps: number; p99: number },
  runs: Array<{ title: string; rps: number; p99: number }>,
) {
  console.log(`\n${name} (${backend}, ${os.cpus().length} cores, Node ${process.version})`);
  const row = (r: { title: string; rps: number; p99: number }) =>
    `  ${r.title.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ratio ${(r.rps / baseline.rps).toFixed(2)}`;
  console.log(row(baseline) + '  (baseline)');
  for (const r of runs) console.log(row(r));
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
