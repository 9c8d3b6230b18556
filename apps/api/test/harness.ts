import type { OutboundPolicy } from '../src/platform/outbound-url.ts';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildPath, type RouteDef } from '@tradeshelf/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { connectDatabase, type Database } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createDeps, type AppDeps } from '../src/deps.ts';
import type { Subscriber } from '../src/events/bus.ts';
import { startQueue } from '../src/jobs/queue.ts';
import { startWorkers, workerDeps } from '../src/jobs/workers.ts';
import { closeServices } from '../src/lifecycle.ts';
import { InlineJobs } from '../src/jobs/port.ts';
import type { WebApp } from '../src/platform/web.ts';
import { keptDatabase } from './kept-database.ts';
import { startLoopbackSmtp } from './smtp.ts';

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The migrated dump as a Blob, read once per worker: PGlite only reads it, and reading 46 MB into a
 * new Blob was ~0.5 s of CPU for each of the ~175 test apps a run starts.
 */
let dumpRead: { file: string; blob: Blob } | null = null;
function dumpBlob(file: string): Blob {
  if (dumpRead?.file !== file) dumpRead = { file, blob: new Blob([readFileSync(file)]) };
  return dumpRead.blob;
}

/**
 * A fresh database for one test file: a clone of the migrated template on PostgreSQL; embedded, the
 * worker's database emptied back to the migrated state (`kept-database.ts`).
 */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const tpl = inject('pgTemplate');
  if (tpl) {
    const name = `tradeshelf_t_${process.ppid}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: tpl.url });
    await admin.connect();
    await admin.query(`create database ${name} template ${tpl.template}`);
    await admin.end();
    const url = new URL(tpl.url);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        const c = new pg.Client({ connectionString: tpl.url });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dump = inject('pgliteDump');
  if (!dump) throw new Error('global setup provided no database');
  const kept = await keptDatabase(dumpBlob(dump));
  if (kept) return kept;
  const embedded = await startEmbeddedPostgres({ loadDataDir: dumpBlob(dump) });
  return { url: embedded.url, drop: () => embedded.stop() };
}

/** How long a test app waits for a connection of the embedded database (see `startTestApp`). */
const EMBEDDED_CONNECT_TIMEOUT_MS = 60_000;

let ipCounter = 0;
/** A distinct client address per request, so per-IP limits only bite where a test means them to. */
export const nextIp = () =>
  `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  token?: string | null;
  ip?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  config: Config;
  database: Database;
  smtp: Awaited<ReturnType<typeof startLoopbackSmtp>>;
  /** The in-process job runner: `settle()` waits for work requests handed off (e.g. mail). */
  jobs: InlineJobs;
  /** Calls a contract route through the app's HTTP surface. */
  call(route: RouteDef, options?: CallOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startTestApp(
  env: Record<string, string> = {},
  /** Adds test-only routes before the app is ready (routes cannot be added after). */
  options: {
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** A database of the test's own (migrated) instead of a clone of the template; not dropped. */
    databaseUrl?: string;
    /** `DATABASE_READ_URL`: a streaming replica of `databaseUrl` (ADR 061). */
    readUrl?: string;
    /** Runs a real pg-boss and the job workers on the database, as `npm start` does. */
    queue?: boolean;
    /** Connection limits of the app's pool and the queue's (see db/client.ts); default: none to hold. */
    limits?: { connectTimeoutMs?: number; holdLimitMs?: number };
    /** Replaces the modules' event subscribers (tests of the event machinery). */
    subscribers?: Subscriber[];
    /** How webhook host names resolve (tests of the address checks). */
    resolve?: OutboundPolicy['resolve'];
    /** Connections in the app's pool (default 4); 1 finds work that holds one while it waits on another. */
    poolSize?: number;
    /** Serves pages too: the SSR app, given the app its loaders call (see `main.ts`). */
    web?: (app: () => FastifyInstance, deps: AppDeps) => Promise<WebApp | null>;
  } = {},
): Promise<TestApp> {
  const db = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await freshDatabase();
  const smtp = await startLoopbackSmtp();
  // The app answers on a loopback port too: its Stripe adapter reaches the Stripe sandbox (`/v1`) over
  // HTTP there, as `npm start` does. Bound first, so the port is in the config the adapter is built with.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig({
    APP_ENV: 'local',
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-test-')),
    DATABASE_URL: db.url,
    ...(options.readUrl ? { DATABASE_READ_URL: options.readUrl } : {}),
    SMTP_URL: smtp.url,
    JWT_SECRET: 'test-jwt-secret-test-jwt-secret-test-jwt',
    CODE_SECRET: 'test-code-secret-test-code-secret-test-c',
    STORAGE_SECRET: 'test-storage-secret-test-storage-secret-x',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const onPostgres = Boolean(inject('pgTemplate'));
  // The embedded database runs every connection's statements one at a time (one PGlite session), so
  // under load a burst waits its turn for longer than the 5 s production allows for reaching a server
  // (that limit is for a blackholed host, ADR 019). Tests of the limits set their own.
  const limits = {
    ...(onPostgres ? {} : { connectTimeoutMs: EMBEDDED_CONNECT_TIMEOUT_MS }),
    ...options.limits,
  };
  // Real PostgreSQL runs hot reads as prepared statements, as production does; PGlite cannot.
  const database = connectDatabase(db.url, options.poolSize ?? 4, {
    prepared: onPostgres,
    ...limits,
    ...(options.readUrl ? { read: { url: options.readUrl, max: options.poolSize ?? 4 } } : {}),
  });
  const boss = options.queue ? await startQueue(db.url, quietLog, limits) : null;
  const deps = createDeps(config, database, quietLog, {
    boss,
    ...(options.subscribers ? { subscribers: options.subscribers } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  if (boss) await startWorkers(boss, workerDeps(deps, quietLog));
  // Without a queue, jobs run in process after the answer; tests can hold and settle them.
  const jobs = deps.jobs instanceof InlineJobs ? deps.jobs : null;
  if (!boss && !jobs) throw new Error('tests without a queue run jobs in process');
  let built: FastifyInstance | null = null;
  const web = options.web ? await options.web(() => built!, deps) : null;
  const app = await buildApp(deps, { web });
  built = app;
  await options.beforeReady?.(app);
  await app.ready();
  server.on('request', (req, res) => app.routing(req, res));

  return {
    app,
    deps,
    config,
    database,
    smtp,
    jobs: jobs!,
    call(route, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      return app.inject({
        method: route.method,
        url: buildPath(route.path, options.params),
        ...(options.query ? { query: options.query } : {}),
        ...(options.body !== undefined ? { payload: options.body as object } : {}),
        headers,
        remoteAddress: options.ip ?? nextIp(),
      });
    },
    async close() {
      await jobs?.settle();
      // The same path as the server's SIGTERM; a step that fails fails the test.
      const failed = await closeServices({ app, boss, deps }, quietLog);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await smtp.close();
      await db.drop();
      if (failed.length) throw new Error(`closing the test app failed at: ${failed.join(', ')}`);
    },
  };
}

/**
 * The test app of one file: started before its tests (within `timeoutMs`, the hook's default when
 * not given) and closed after them. Hooks the file adds later run after the start. The answer reads
 * through to the started app, so a file's helpers can take it before it runs.
 */
export function useTestApp(
  start: () => Promise<TestApp> = () => startTestApp(),
  timeoutMs?: number,
): TestApp {
  let started: TestApp | undefined;
  const current = () => {
    if (!started) throw new Error('the test app starts in beforeAll: use it within a test or hook');
    return started;
  };
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    await started?.close();
  });
  return {
    get app() {
      return current().app;
    },
    get deps() {
      return current().deps;
    },
    get config() {
      return current().config;
    },
    get database() {
      return current().database;
    },
    get smtp() {
      return current().smtp;
    },
    get jobs() {
      return current().jobs;
    },
    call: (route, options) => current().call(route, options),
    close: () => current().close(),
  };
}
