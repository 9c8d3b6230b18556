import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { freePort, within } from '../test/http.ts';
import { buildOutputFile, ensureWebBuild } from '../test/web-build.ts';
import { demoAccounts } from './db/seed.ts';

// What `npm start` shows a newcomer (issue 27): the build and the server printed 8 `envFile`
// deprecations, 5 React Router future-flag warnings and two JSON lines per request, burying the banner.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const noise = /envFile|deprecat|Future Flag|future\.v8_/i;
/** A bundler warning, as Rolldown prints them (`[INEFFECTIVE_DYNAMIC_IMPORT] …`). */
const bundlerWarning = /\[[A-Z]+(?:_[A-Z]+)+\]/;

// On PostgreSQL the server gets a database of its own. Without one it starts its embedded database
// in DATA_DIR as `npm start` does: a test's PGlite socket posing as a server got prepared statements,
// which PGlite's one shared session cannot hold ("prepared statement … already exists").
let db: Awaited<ReturnType<typeof freshDatabase>> | null = null;
beforeAll(async () => {
  if (inject('pgTemplate')) db = await freshDatabase();
});
afterAll(() => db?.drop());

it("`npm start`'s build prints no deprecation, future-flag or bundler warnings", () => {
  // What the build of the served app printed (apps/web/scripts/build.mjs keeps it): the same
  // `npm run build` that `npm start` runs first; built here when missing or older than its sources.
  ensureWebBuild();
  const printed = readFileSync(buildOutputFile, 'utf8');
  expect(printed.split('\n').filter((l) => noise.test(l) || bundlerWarning.test(l))).toEqual([]);
  expect(printed).toMatch(/precompressed \d+ files/);
});

/** `npm start` as a newcomer runs it (no LOG_LEVEL, demo data seeded), plus `env`; stopped after `visit`. */
async function startAndStop(
  extra: NodeJS.ProcessEnv,
  visit: (base: string) => Promise<void>,
): Promise<{ stdout: string; stderr: string; port: number }> {
  ensureWebBuild();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: 'local',
    DATABASE_URL: db?.url ?? '',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-quiet-')),
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_URL: '',
    RUN_WORKER: 'false',
    NODE_ENV: 'production',
    ...extra,
  };
  delete env.LOG_LEVEL;
  delete env.SEED_DEMO;
  if (!extra.LOG_FORMAT) delete env.LOG_FORMAT;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await within(
      150_000,
      'the banner',
      new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', () => stdout.includes('Demo accounts') && resolve());
        void exited.then((code) => reject(new Error(`exited (${code}): ${stdout}${stderr}`)));
      }),
    );
    await visit(`http://127.0.0.1:${port}`);
    // Everything printed is flushed by the time the process has exited.
    child.kill('SIGTERM');
    expect(await within(30_000, 'exit', exited)).toBe(0);
    return { stdout, stderr, port };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const visits = ['/', '/search?q=rsi', '/healthz', '/api/v1/no-such-route', '/favicon.ico'];
const visitAll = async (base: string) => {
  for (const url of visits) await (await fetch(base + url)).arrayBuffer();
};

it('starts locally at the default level with only the banner and demo accounts, requests unlogged', async () => {
  // Not a terminal (a pipe): JSON logs, at `warn` locally.
  const { stdout, stderr, port } = await startAndStop({}, visitAll);
  expect(stdout).toContain(`Tradeshelf is running at http://localhost:${port}`);
  for (const a of demoAccounts) expect(stdout).toContain(a.email);
  const lines = (stdout + stderr).split('\n').filter((l) => l.trim());
  // No log lines at all (pino writes JSON) and nothing a newcomer need not read.
  expect(lines.filter((l) => l.startsWith('{') || noise.test(l))).toEqual([]);
  expect(stderr).toBe('');
}, 240_000);

it('with readable logs (a terminal, or LOG_FORMAT=pretty), one short line per request after the banner', async () => {
  const { stdout, stderr } = await startAndStop({ LOG_FORMAT: 'pretty' }, visitAll);
  const lines = stdout.split('\n').filter((l) => l.trim());
  // No JSON, nothing a newcomer need not read, and the banner whole before any request line.
  expect(lines.filter((l) => l.trimStart().startsWith('{') || noise.test(l))).toEqual([]);
  const banner = lines.findIndex((l) => l.includes('Tradeshelf is running at'));
  const demo = lines.findIndex((l) => l.includes('Demo accounts'));
  expect(demo).toBeGreaterThan(banner);
  for (const a of demoAccounts) expect(stdout).toContain(a.email);
  // One line per request the browser sent (method, path, status, ms); none for the built favicon,
  // none for the API calls pages make in process.
  const requests = lines.filter((l) => /^ {2}(GET|POST|HEAD) /.test(l));
  expect(requests.map((l) => l.replace(/ \d+ ms$/, ''))).toEqual([
    '  GET / 200',
    '  GET /search?q=rsi 200',
    '  GET /healthz 200',
    '  GET /api/v1/no-such-route 404',
  ]);
  for (const l of requests) expect(l).toMatch(/ \d+ ms$/);
  expect(lines.findIndex((l) => l === requests[0])).toBeGreaterThan(demo);
  // Messages are short lines too: the one that says where it listens.
  expect(lines.some((l) => /^INFO +listening address=http:/.test(l))).toBe(true);
  expect(stderr).toBe('');
}, 240_000);
