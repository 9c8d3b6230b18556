import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { freePort, within } from '../test/http.ts';
import { ensureWebBuild } from '../test/web-build.ts';
import { demoAccounts } from './db/seed.ts';

// What `npm start` shows a newcomer (issue 27): the build and the server printed 8 `envFile`
// deprecations, 5 React Router future-flag warnings and two JSON lines per request, burying the banner.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const noise = /envFile|deprecat|Future Flag|future\.v8_/i;

// On PostgreSQL the server gets a database of its own. Without one it starts its embedded database
// in DATA_DIR as `npm start` does: a test's PGlite socket posing as a server got prepared statements,
// which PGlite's one shared session cannot hold ("prepared statement … already exists").
let db: Awaited<ReturnType<typeof freshDatabase>> | null = null;
beforeAll(async () => {
  if (inject('pgTemplate')) db = await freshDatabase();
});
afterAll(() => db?.drop());

it("`npm start`'s build prints no deprecation or future-flag warnings", async () => {
  // The same script `npm start` runs first, into a directory of its own (other tests serve the build).
  const out = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-quiet-build-'));
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', 'build'], {
      cwd: root,
      env: { ...process.env, WEB_BUILD_DIR: out },
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = (stdout + stderr).split('\n');
    expect(lines.filter((l) => noise.test(l))).toEqual([]);
    expect(stdout).toMatch(/precompressed \d+ files/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 300_000);

it('starts locally at the default level with only the banner and demo accounts, requests unlogged', async () => {
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
  };
  // As `npm start` runs it: no LOG_LEVEL, demo data seeded.
  delete env.LOG_LEVEL;
  delete env.SEED_DEMO;
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
    const base = `http://127.0.0.1:${port}`;
    for (const url of ['/', '/search?q=rsi', '/healthz', '/api/v1/no-such-route', '/favicon.ico'])
      await (await fetch(base + url)).arrayBuffer();
    // Everything printed is flushed by the time the process has exited.
    child.kill('SIGTERM');
    expect(await within(30_000, 'exit', exited)).toBe(0);

    expect(stdout).toContain(`Tradeshelf is running at http://localhost:${port}`);
    for (const a of demoAccounts) expect(stdout).toContain(a.email);
    const lines = (stdout + stderr).split('\n').filter((l) => l.trim());
    // No log lines at all (pino writes JSON) and nothing a newcomer need not read.
    expect(lines.filter((l) => l.startsWith('{') || noise.test(l))).toEqual([]);
    expect(stderr).toBe('');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}, 240_000);
