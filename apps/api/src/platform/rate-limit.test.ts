import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  MemoryRateLimitStore,
  RateLimiter,
  RedisRateLimitStore,
  type RateLimitStore,
} from './rate-limit.ts';

// Redis runs when REDIS_URL is set (CI sets it); without it the Redis case is reported as skipped.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
afterAll(() => redis.disconnect());

const stores: Array<[string, () => Promise<RateLimitStore>]> = [
  ['memory', async () => new MemoryRateLimitStore()],
  [
    process.env.REDIS_URL ? 'redis' : 'redis (skipped: REDIS_URL unset)',
    async () => {
      await redis.connect().catch(() => undefined);
      if (redis.status !== 'ready')
        throw new Error(`Redis is not reachable at ${redisUrl}; CI starts it (.ci/run).`);
      return new RedisRateLimitStore(redis);
    },
  ],
];

describe.each(stores)('rate limiter on %s', (name, make) => {
  it.skipIf(name.includes('skipped'))(
    'allows the limit, then answers 429 with Retry-After until reset',
    async () => {
      const limiter = new RateLimiter(await make());
      const rule = { name: `test:${Math.random()}`, limit: 3, windowSeconds: 60 };
      for (let i = 0; i < 3; i++) await limiter.consume([{ rule, key: 'k' }]);
      const err = await limiter.consume([{ rule, key: 'k' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(429);
      const retry = Number((err as AppError).headers?.['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      await limiter.consume([{ rule, key: 'other' }]);
      await limiter.reset(rule, 'k');
      await limiter.consume([{ rule, key: 'k' }]);
    },
  );

  it.skipIf(name.includes('skipped'))('peeks at a count without adding to it', async () => {
    const limiter = new RateLimiter(await make());
    const rule = { name: `test:${Math.random()}`, limit: 3, windowSeconds: 60 };
    expect(await limiter.peek(rule, 'k')).toEqual({ count: 0, resetIn: 0 });
    expect((await limiter.hit(rule, 'k')).count).toBe(1);
    expect((await limiter.hit(rule, 'k')).count).toBe(2);
    const seen = await limiter.peek(rule, 'k');
    expect(seen.count).toBe(2);
    expect(seen.resetIn).toBeGreaterThan(0);
    expect(seen.resetIn).toBeLessThanOrEqual(60);
    expect((await limiter.peek(rule, 'k')).count).toBe(2);
  });
});
