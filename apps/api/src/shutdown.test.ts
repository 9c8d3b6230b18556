import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
type LogLine = { msg?: string; address?: string; req?: { url?: string } };

let db: Awaited<ReturnType<typeof freshDatabase>>;
let child: ChildProcess;
const lines: LogLine[] = [];
const waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];

/** Resolves with the first log line (past or future) the server prints that passes `test`. */
function logLine(test: (l: LogLine) => boolean): Promise<LogLine> {
  const seen = lines.find(test);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ test, resolve }));
}

beforeAll(async () => {
  db = await freshDatabase();
  child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      APP_ENV: 'local',
      DATABASE_URL: db.url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-shutdown-')),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      RUN_WORKER: 'false',
      SMTP_URL: '',
      SHUTDOWN_GRACE_SECONDS: '3',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as LogLine;
    lines.push(line);
    for (const w of waiters.splice(0)) {
      if (w.test(line)) w.resolve(line);
      else waiters.push(w);
    }
  });
});

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await db.drop();
});

it('SIGTERM lets an in-flight request finish, cuts a stalled one after the grace period, then exits cleanly', async () => {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = await logLine((l) => l.msg === 'listening');
  const port = Number(new URL(listening.address!).port);

  // A login whose body is only half sent: the request is in flight until the rest arrives.
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' });
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  // Resolves once a whole response (head and Content-Length bytes of body) has arrived, or on close.
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      const head = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(answer);
      if (head >= 0 && length && Buffer.byteLength(answer) - head - 4 >= Number(length[1]))
        resolve();
    });
    socket.once('close', () => resolve());
  });
  socket.write(
    'POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body.slice(0, 10),
  );
  await logLine((l) => l.msg === 'incoming request' && l.req?.url === '/auth/login');

  // A sign-up whose body never comes: without a cut-off it would hold the close open until the
  // forced exit.
  const stalled = net.connect(port, '127.0.0.1');
  const stalledClosed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
  stalled.on('error', () => undefined);
  stalled.write(
    'POST /auth/signup/buyer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100\r\n\r\n{"email":',
  );
  await logLine((l) => l.msg === 'incoming request' && l.req?.url === '/auth/signup/buyer');

  child.kill('SIGTERM');
  await logLine((l) => l.msg === 'shutting down');
  // The rest of the body, without half-closing: Node aborts a request whose client sends FIN.
  socket.write(body.slice(10));
  await answered;
  socket.destroy();

  // The request was answered in full (wrong credentials), not cut off.
  expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  expect(answer).toContain('"code":"invalid_credentials"');
  await stalledClosed;
  expect(await exited).toBe(0);
});
