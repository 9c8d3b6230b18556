import { authRoutes, supportRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories/users.ts';
import { nextIp, startTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/http.ts';
import { killOwnRedisServers, startOwnRedis, type OwnRedis } from '../../test/redis-server.ts';
import { buildApp } from '../app.ts';
import { createDeps, type AppDeps } from '../deps.ts';
import { rules } from './rate-limit.ts';

/**
 * Issue 26: with Redis gone, login, contact and every other limited route answered 500 after 6–15 s
 * while `/readyz` said 200. Two API nodes share a Redis server of this file's own, which the tests
 * kill, freeze (SIGSTOP: connections accepted, never answered) and bring back (ADR 050).
 */

/** Generous: the old client took 6–15 s per request; the bench measures the real figure. */
const PROMPT_MS = 2_000;

let redis: OwnRedis;
let a: TestApp;
let b: { app: FastifyInstance; deps: AppDeps };
const logs: Array<{ level: string; msg: string }> = [];
const record = (level: string) => (_obj: object, msg: string) => void logs.push({ level, msg });

beforeAll(async () => {
  redis = await startOwnRedis();
  // Above the 100 ms default, so a stall of this loaded machine is not mistaken for an outage.
  a = await startTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '500' });
  const deps = createDeps(a.config, a.database, {
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  });
  b = { app: await buildApp(deps), deps };
  await until('node A on Redis', async () => (await store(a.app)) === 'redis');
  await until('node B on Redis', async () => (await store(b.app)) === 'redis');
});
afterAll(async () => {
  // First: a server a timed-out test left frozen or running must not outlive the run.
  killOwnRedisServers();
  await b?.app.close();
  await b?.deps.close();
  await a?.close();
});

async function timed<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  return result;
}

async function store(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ status: string; rateLimitStore: string }>();
  expect(body.status).toBe('ready');
  return body.rateLimitStore;
}

const login = (app: FastifyInstance, email: string, password: string, ip: string) =>
  timed(() =>
    app.inject({
      method: authRoutes.login.method,
      url: authRoutes.login.path,
      payload: { email, password },
      remoteAddress: ip,
    }),
  );

const contact = (app: FastifyInstance, email: string) =>
  timed(() =>
    app.inject({
      method: supportRoutes.contact.method,
      url: supportRoutes.contact.path,
      payload: { name: 'Ada', email, subject: 'Licence', message: 'The key is refused.' },
      remoteAddress: nextIp(),
    }),
  );

const unique = () => `u${Math.random().toString(36).slice(2, 10)}@example.com`;

/**
 * One address guessing at one account: `rules.loginPair.limit` wrong passwords answer 401, the next
 * 429. `nodes` take turns, so with two nodes the limit holds only if they share the counts.
 */
async function pairLimitHolds(nodes: FastifyInstance[]) {
  const email = unique();
  const ip = nextIp();
  for (let i = 0; i < rules.loginPair.limit; i++) {
    const res = await login(nodes[i % nodes.length]!, email, 'wrong-password-1', ip);
    expect(res.statusCode, res.body).toBe(401);
  }
  const refused = await login(nodes[0]!, email, 'wrong-password-1', ip);
  expect(refused.statusCode, refused.body).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
}

async function stillServes(app: FastifyInstance) {
  const user = await createUser(a);
  const ok = await login(app, user.email, user.password, nextIp());
  expect(ok.statusCode, ok.body).toBe(200);
  await pairLimitHolds([app]);
  // Contact: five messages per e-mail an hour, then 429.
  const email = unique();
  for (let i = 0; i < 5; i++) expect((await contact(app, email)).statusCode).toBe(202);
  const refused = await contact(app, email);
  expect(refused.statusCode).toBe(429);
  expect(refused.headers['retry-after']).toBeDefined();
}

describe('rate limits while Redis is unreachable (ADR 050)', () => {
  it('share counts through Redis while it answers, and /readyz says so', async () => {
    expect(await store(a.app)).toBe('redis');
    await pairLimitHolds([a.app, b.app]);
  });

  it('count in memory once Redis is killed: answers stay prompt and limits hold per node', async () => {
    logs.length = 0;
    await redis.kill();
    await stillServes(a.app);
    await stillServes(b.app);
    expect(await timed(() => store(a.app))).toBe('memory (redis unreachable)');
    // Once per outage, not per request or reconnect attempt.
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      "redis unreachable; rate limits count in this node's memory until it answers",
    ]);
  });

  it('go back to Redis when it returns, without a restart', async () => {
    logs.length = 0;
    await redis.start();
    await until('node A back on Redis', async () => (await store(a.app)) === 'redis');
    await until('node B back on Redis', async () => (await store(b.app)) === 'redis');
    await pairLimitHolds([a.app, b.app]);
    expect(logs.map((l) => l.msg)).toEqual(['redis answers again; rate limits are shared again']);
  });

  it('do not wait on a Redis that accepts connections and never answers (SIGSTOP)', async () => {
    redis.freeze();
    try {
      await stillServes(a.app);
      expect(await timed(() => store(a.app))).toBe('memory (redis unreachable)');
      // An idle node finds out from /readyz itself, within the command timeout.
      expect(await timed(() => store(b.app))).toBe('memory (redis unreachable)');
    } finally {
      redis.thaw();
    }
    await until('node A back on Redis', async () => (await store(a.app)) === 'redis');
    await until('node B back on Redis', async () => (await store(b.app)) === 'redis');
    await pairLimitHolds([a.app, b.app]);
  });
});

describe('starting with Redis unreachable', () => {
  it.each([
    ['refusing connections', async (r: OwnRedis) => r.kill(), () => undefined],
    ['frozen', async (r: OwnRedis) => r.freeze(), (r: OwnRedis) => r.thaw()],
  ] as const)(
    '%s: starts, answers its first requests promptly, and says so',
    async (_, down, up) => {
      const own = await startOwnRedis();
      await down(own);
      const deps = createDeps({ ...a.config, REDIS_URL: own.url }, a.database, {
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      });
      try {
        const app = await timed(() => buildApp(deps));
        try {
          await stillServes(app);
          expect(await store(app)).toMatch(/^memory \(redis (unreachable|connecting)\)$/);
        } finally {
          await app.close();
        }
      } finally {
        await deps.close();
        up(own);
        await own.stop();
      }
    },
  );
});
