import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  addressKey,
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

describe('addressKey', () => {
  it('keeps IPv4, folds IPv4-mapped IPv6 into it, and counts IPv6 per /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:0:ffff::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
