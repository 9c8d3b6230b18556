import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { authRoutes, catalogRoutes, supportRoutes } from '@tradeshelf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { accepting, freePort, listen } from '../../test/http.ts';

/**
 * The app behind a real balancer (issue 26, ADR 049): Debian's HAProxy with `option forwardfor`
 * appends the address it saw to whatever X-Forwarded-For the client sent, as load balancers do.
 * With `TRUST_PROXY=1`, as docs/operations.md says for one balancer, a client that writes a new left-most
 * entry on every request is still limited by its own address.
 */

/** On PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
const HAPROXY = ['haproxy', '/usr/sbin/haproxy'].find(
  (bin) => spawnSync(bin, ['-v'], { encoding: 'utf8' }).status === 0,
);
const SEARCH_LIMIT = 15;

let t: TestApp;
let haproxy: ChildProcess | null = null;
let port = 0;
let haproxyLog = '';

beforeAll(async () => {
  if (!HAPROXY)
    throw new Error(
      'HAProxy is missing: this probe runs the app behind a real one (apt-get install haproxy; .ci/run installs it)',
    );
  t = await startTestApp({
    TRUST_PROXY: '1',
    SEARCH_LIMIT_PER_IP_MINUTE: String(SEARCH_LIMIT),
  });
  const appPort = await listen(t.app);
  port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      // Appends the peer's address: `X-Forwarded-For: <what the client wrote>, <client>`.
      '  option forwardfor',
      'frontend balancer',
      `  bind 127.0.0.1:${port}`,
      '  default_backend app',
      'backend app',
      `  server app 127.0.0.1:${appPort}`,
      '',
    ].join('\n'),
  );
  haproxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
  await accepting(port, 'HAProxy', {
    alive: () => {
      if (haproxy?.exitCode !== null)
        throw new Error(`HAProxy exited (${haproxy?.exitCode}): ${haproxyLog}`);
    },
  });
}, 60_000);

afterAll(async () => {
  if (haproxy && haproxy.exitCode === null) {
    const exited = new Promise((resolve) => haproxy!.once('exit', resolve));
    haproxy.kill('SIGTERM');
    await exited;
  }
  await t?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through HAProxy from `from` (a loopback address of this machine). */
function viaBalancer(
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; forwardedFor: string; from: string },
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        localAddress: options.from,
        agent: false,
        headers: {
          'x-forwarded-for': options.forwardedFor,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

let rotation = 0;
/** A new left-most X-Forwarded-For entry on every request, as the probe wrote. */
const rotated = () => `203.0.113.${++rotation % 250}, 198.51.100.${rotation % 7}`;
const ATTACKER = '127.0.0.1';
const NEIGHBOUR = '127.0.0.2';

/** Sends until the first 429; returns the answers. */
async function untilLimited(send: () => Promise<Answer>, atMost: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < atMost; i++) {
    const answer = await send();
    answers.push(answer);
    if (answer.status === 429) break;
  }
  return answers;
}

const expectLimited = (answers: Answer[], allowed: number) => {
  const last = answers[answers.length - 1]!;
  expect(last.status, answers.map((a) => a.status).join(' ')).toBe(429);
  expect(answers.length).toBe(allowed + 1);
  expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  expect(JSON.parse(last.body)).toMatchObject({ code: 'rate_limited' });
};

describe('behind HAProxy with TRUST_PROXY=1, a client rotating the left X-Forwarded-For entry', () => {
  it('is limited on one account’s password; the owner elsewhere still signs in', async () => {
    const owner = await createUser(t);
    const guess = (from: string, password: string) =>
      viaBalancer('POST', authRoutes.login.path, {
        body: { email: owner.email, password },
        forwardedFor: rotated(),
        from,
      });
    const answers = await untilLimited(() => guess(ATTACKER, 'wrong-guess-123'), 40);
    // Ten wrong guesses per account and address (ADR 021); then 429, whatever the header says.
    expect(answers.slice(0, -1).every((a) => a.status === 401)).toBe(true);
    expectLimited(answers, 10);
    expect((await guess(ATTACKER, DEFAULT_PASSWORD)).status).toBe(429);
    expect((await guess(NEIGHBOUR, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it('is limited on the contact form', async () => {
    let n = 0;
    const send = (from: string) =>
      viaBalancer('POST', supportRoutes.contact.path, {
        body: {
          name: 'Ada Trader',
          email: `probe${++n}-${rotation}@example.com`,
          subject: 'Hello',
          message: 'Is the scanner available for MT5?',
        },
        forwardedFor: rotated(),
        from,
      });
    const answers = await untilLimited(() => send(ATTACKER), 40);
    expect(answers.slice(0, -1).every((a) => a.status === 202)).toBe(true);
    expectLimited(answers, 10);
    expect((await send(NEIGHBOUR)).status).toBe(202);
  });

  it('is limited on sign-ups', async () => {
    let n = 0;
    const signUp = (from: string) =>
      viaBalancer('POST', authRoutes.signupBuyer.path, {
        body: { email: `signup${++n}-${rotation}@example.com`, password: 'a-strong-pass-42' },
        forwardedFor: rotated(),
        from,
      });
    const answers = await untilLimited(() => signUp(ATTACKER), 40);
    expect(answers.slice(0, -1).every((a) => a.status === 201)).toBe(true);
    expectLimited(answers, t.config.SIGNUP_LIMIT_PER_IP_HOUR);
    expect((await signUp(NEIGHBOUR)).status).toBe(201);
  });

  it('is limited on search', async () => {
    const search = (from: string) =>
      viaBalancer('GET', `${catalogRoutes.search.path}?q=rsi`, { forwardedFor: rotated(), from });
    const answers = await untilLimited(() => search(ATTACKER), 40);
    expect(answers.slice(0, -1).every((a) => a.status === 200)).toBe(true);
    expectLimited(answers, SEARCH_LIMIT);
    expect((await search(NEIGHBOUR)).status).toBe(200);
  });
});
