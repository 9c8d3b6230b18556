import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { within } from '../test/http.ts';
import type { AppDeps } from './deps.ts';
import { startBackground } from './lifecycle.ts';
import { startMemberWatch } from './modules/access/index.ts';

// Starting while Discord is unreachable (issue 26): `npm start` used to wait for the gateway before
// listening, so a Discord outage at start took the whole site down with a bare ECONNREFUSED.

type Line = { obj: Record<string, unknown>; msg: string };

/** A logger that keeps its lines and lets a test wait for one. */
function recorder() {
  const lines: Line[] = [];
  const waiters: Array<{ test: (l: Line) => boolean; resolve: (l: Line) => void }> = [];
  const push = (obj: object, msg: string) => {
    const line = { obj: obj as Record<string, unknown>, msg };
    lines.push(line);
    for (const w of waiters.splice(0)) (w.test(line) ? w.resolve : () => waiters.push(w))(line);
  };
  return {
    lines,
    log: { info: push, warn: push, error: push },
    next: (test: (l: Line) => boolean) =>
      lines.find(test)
        ? Promise.resolve(lines.find(test)!)
        : new Promise<Line>((resolve) => waiters.push({ test, resolve })),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let t: TestApp;
let api: string;
beforeAll(async () => {
  api = `http://127.0.0.1:${await closedPort()}/api`;
  t = await startTestApp({
    CHAT_PROVIDER: 'discord',
    DISCORD_API_URL: api,
    DISCORD_CLIENT_ID: '1100000000000000001',
    DISCORD_CLIENT_SECRET: 'secret',
    DISCORD_BOT_TOKEN: 'token',
    RUN_WORKER: 'true',
  });
});
afterAll(() => t?.close());

it('serves while Discord is unreachable, and keeps trying to start member events with the reason', async () => {
  const { log, next } = recorder();
  // What `npm start` runs before listening: it must return although the gateway cannot connect.
  const started = await within(
    5_000,
    'startBackground',
    startBackground(t.deps, null, log, { serving: true }),
  );
  try {
    expect(started.watch).not.toBeNull();
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);

    const first = await within(
      20_000,
      'first failure logged',
      next((l) => l.obj.attempt === 1),
    );
    expect(first.msg).toMatch(/could not start.*retrying/);
    expect(first.obj).toMatchObject({ provider: 'discord', api, retryInMs: 1000 });
    expect(String(first.obj.err)).toMatch(/ECONNREFUSED/);
    const second = await within(
      20_000,
      'a retry after the first',
      next((l) => l.obj.attempt === 2),
    );
    expect(second.obj.retryInMs).toBe(2000);
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  } finally {
    started.watch?.stop();
  }
});

it('starts member events once Discord answers, and says after how many attempts', async () => {
  const { log, next } = recorder();
  let calls = 0;
  const flaky = {
    ...t.deps,
    chat: {
      name: 'discord',
      async watchMembers() {
        calls += 1;
        if (calls < 3)
          throw new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') });
      },
    },
  } as unknown as AppDeps;
  const watch = startMemberWatch(flaky, log, { firstMs: 1, maxMs: 4 });
  await within(5_000, 'connected', watch.connected);
  expect(calls).toBe(3);
  expect((await next((l) => l.msg.includes('started'))).obj).toEqual({
    provider: 'discord',
    attempts: 3,
  });
  watch.stop();
});

it('`npm start` listens and answers with Discord unreachable, then stops cleanly', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        APP_ENV: 'local',
        DATABASE_URL: t.config.DATABASE_URL!,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-startup-')),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SEED_DEMO: 'false',
        SMTP_URL: '',
        RUN_WORKER: 'true',
        CHAT_PROVIDER: 'discord',
        DISCORD_API_URL: api,
        DISCORD_CLIENT_ID: '1100000000000000001',
        DISCORD_CLIENT_SECRET: 'secret',
        DISCORD_BOT_TOKEN: 'token',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const { log, next } = recorder();
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const { msg, ...obj } = JSON.parse(text) as { msg: string };
    log.info(obj, msg);
  });
  try {
    // Before the fix the process exited here with a bare ECONNREFUSED, never listening.
    const listening = await within(
      60_000,
      'listening or exit',
      Promise.race([
        next((l) => l.msg === 'listening'),
        exited.then((code) => {
          throw new Error(`the app exited (${code}) instead of listening`);
        }),
      ]),
    );
    const health = await fetch(new URL('/healthz', String(listening.obj.address)));
    expect(health.status).toBe(200);
    const failed = await within(
      20_000,
      'the gateway failure logged',
      next((l) => /could not start/.test(l.msg)),
    );
    expect(failed.obj).toMatchObject({ provider: 'discord', api, attempt: 1 });
    child.kill('SIGTERM');
    expect(await within(30_000, 'exit', exited)).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
