import { isIPv4, isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { AFFILIATE_INVITES_PER_DAY } from '@tradeshelf/contract';
import { AppError } from './errors.ts';

export interface RateRule {
  /** Bucket name, e.g. `login:ip`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitStore {
  /** Adds one hit; returns the count in the current window and seconds until it resets. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetIn: number }>;
  /** The count in the current window without adding to it (0 when none). */
  peek(key: string): Promise<{ count: number; resetIn: number }>;
  reset(key: string): Promise<void>;
  /** Where counts go now, as `/readyz` reports it. */
  describe(): Promise<string>;
}

/** Fixed-window counters in process memory (one node). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowSeconds: number) {
    const now = Date.now();
    let b = this.buckets.get(key);
    if (!b || b.resetAt <= now) {
      b = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.buckets.set(key, b);
      if (this.buckets.size > 50_000) this.sweep(now);
    }
    b.count += 1;
    return { count: b.count, resetIn: Math.max(1, Math.ceil((b.resetAt - now) / 1000)) };
  }

  async peek(key: string) {
    const now = Date.now();
    const b = this.buckets.get(key);
    if (!b || b.resetAt <= now) return { count: 0, resetIn: 0 };
    return { count: b.count, resetIn: Math.max(1, Math.ceil((b.resetAt - now) / 1000)) };
  }

  async reset(key: string) {
    this.buckets.delete(key);
  }

  async describe() {
    return 'memory';
  }

  private sweep(now: number) {
    for (const [k, v] of this.buckets) if (v.resetAt <= now) this.buckets.delete(k);
  }
}

/** Fixed-window counters in Redis, shared by every node. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowSeconds: number) {
    const k = `rl:${key}`;
    const res = await this.redis.multi().incr(k).pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 1);
    let ttl = Number(res?.[1]?.[1] ?? -1);
    if (ttl < 0) {
      await this.redis.pexpire(k, windowSeconds * 1000);
      ttl = windowSeconds * 1000;
    }
    return { count, resetIn: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  async peek(key: string) {
    const k = `rl:${key}`;
    const res = await this.redis.multi().get(k).pttl(k).exec();
    const count = Number(res?.[0]?.[1] ?? 0);
    const ttl = Number(res?.[1]?.[1] ?? -1);
    if (!count || ttl < 0) return { count: 0, resetIn: 0 };
    return { count, resetIn: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  async reset(key: string) {
    await this.redis.del(`rl:${key}`);
  }

  async describe() {
    return 'redis';
  }
}

/**
 * Redis while it answers, this node's memory while it does not (ADR 050): a per-node limit is still
 * a limit, and no request waits on a Redis that is gone. The client must fail fast (no offline queue,
 * a command timeout; see `connectRedis`), so a failed command costs at most that timeout, once per
 * outage. ioredis' `ready` (it reconnects by itself) brings the shared counters back.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  /** `connecting` until the first `ready` or failure: counts stay in memory, nothing is logged. */
  private state: 'connecting' | 'up' | 'down' = 'connecting';
  private readonly shared: RedisRateLimitStore;
  private readonly memory = new MemoryRateLimitStore();

  constructor(
    private readonly redis: Redis,
    private readonly events: { down(err: unknown): void; up(): void },
  ) {
    this.shared = new RedisRateLimitStore(redis);
    redis.on('error', (err: unknown) => this.fail(err));
    redis.on('ready', () => {
      const was = this.state;
      this.state = 'up';
      if (was === 'down') this.events.up();
    });
  }

  hit(key: string, windowSeconds: number) {
    return this.either((s) => s.hit(key, windowSeconds));
  }

  peek(key: string) {
    return this.either((s) => s.peek(key));
  }

  async reset(key: string) {
    // Both: memory may hold counts from an earlier outage that would outlive this reset.
    await this.memory.reset(key);
    if (this.state === 'up') await this.shared.reset(key).catch((err: unknown) => this.fail(err));
  }

  /** Asks Redis (bounded by the command timeout), so an idle node notices a silent outage too. */
  async describe() {
    if (this.state === 'up') await this.redis.ping().catch((err: unknown) => this.fail(err));
    if (this.state === 'up') return 'redis';
    return this.state === 'down' ? 'memory (redis unreachable)' : 'memory (redis connecting)';
  }

  private async either<T>(op: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.state === 'up') {
      try {
        return await op(this.shared);
      } catch (err) {
        this.fail(err);
      }
    }
    return op(this.memory);
  }

  private fail(err: unknown) {
    if (this.state !== 'down') {
      this.state = 'down';
      this.events.down(err);
    }
    // A timed-out command leaves a connection that may never answer again (a dropped network
    // path): start a new one, whose `ready` says Redis answers again.
    if (this.redis.status === 'ready') this.redis.disconnect(true);
  }
}

/**
 * The key a client address is limited by. One IPv6 subscriber usually holds a whole /64, so a limit
 * per full address would be a limit per request for them: IPv6 counts per /64. IPv4 written as an
 * IPv6 address (`::ffff:a.b.c.d`, dual-stack sockets) counts as the IPv4 address.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  if (!isIPv6(address)) return address;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  let groups: string[];
  if (address.includes('::')) {
    const [head, tail] = address.split('::') as [string, string];
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    // A trailing embedded IPv4 counts as two groups; it never reaches the /64 prefix.
    const width = right.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups = [...left, ...Array<string>(8 - left.length - width).fill('0'), ...right];
  } else groups = address.split(':');
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The contract's 429, with `Retry-After` in seconds. */
export function rateLimited(retryAfter: number): AppError {
  return new AppError(
    'rate_limited',
    `Too many attempts. Try again in ${formatWait(retryAfter)}.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /** Counts a hit against each rule; throws 429 with Retry-After when any is over its limit. */
  async consume(checks: Array<{ rule: RateRule; key: string }>): Promise<void> {
    let retryAfter = 0;
    for (const { rule, key } of checks) {
      const { count, resetIn } = await this.store.hit(`${rule.name}:${key}`, rule.windowSeconds);
      if (count > rule.limit) retryAfter = Math.max(retryAfter, resetIn);
    }
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }

  /** Counts a hit and reports the count, for callers whose rule needs more than a limit. */
  hit(rule: RateRule, key: string) {
    return this.store.hit(`${rule.name}:${key}`, rule.windowSeconds);
  }

  peek(rule: RateRule, key: string) {
    return this.store.peek(`${rule.name}:${key}`);
  }

  reset(rule: RateRule, key: string): Promise<void> {
    return this.store.reset(`${rule.name}:${key}`);
  }

  /** `redis`, `memory`, or `memory (redis unreachable)` while Redis is gone (ADR 050). */
  storeState(): Promise<string> {
    return this.store.describe();
  }
}

/** Log-in attempts per address, at the operator's limit (`LOGIN_LIMIT_PER_IP_15_MINUTES`). */
export const loginIpRule = (config: { LOGIN_LIMIT_PER_IP_15_MINUTES: number }): RateRule => ({
  ...rules.loginIp,
  limit: config.LOGIN_LIMIT_PER_IP_15_MINUTES,
});

/** A wait in words: "45 seconds", "12 minutes", "5 hours". */
export function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/** Limits for the auth, activation and contact endpoints. */
export const rules = {
  loginIp: { name: 'login:ip', limit: 30, windowSeconds: 15 * 60 },
  /** Attempts per account and address; a correct password clears it (ADR 021). */
  loginPair: { name: 'login:pair', limit: 10, windowSeconds: 15 * 60 },
  /** Failures per account from every address; past it, only addresses with none may try. */
  loginAccountFailures: { name: 'login:account-failures', limit: 30, windowSeconds: 15 * 60 },
  signupIp: { name: 'signup:ip', limit: 10, windowSeconds: 60 * 60 },
  signupAccount: { name: 'signup:account', limit: 5, windowSeconds: 60 * 60 },
  refreshIp: { name: 'refresh:ip', limit: 120, windowSeconds: 15 * 60 },
  forgotEmail: { name: 'forgot:email', limit: 3, windowSeconds: 15 * 60 },
  forgotIp: { name: 'forgot:ip', limit: 20, windowSeconds: 15 * 60 },
  codeCheckIp: { name: 'code:ip', limit: 30, windowSeconds: 15 * 60 },
  /** Guesses at one e-mail's code (per purpose); a new code resets it. */
  codeAttempts: { name: 'code:attempts', limit: 5, windowSeconds: 15 * 60 },
  activationEmail: { name: 'activation:email', limit: 3, windowSeconds: 15 * 60 },
  activationIp: { name: 'activation:ip', limit: 20, windowSeconds: 15 * 60 },
  passwordChange: { name: 'password-change:user', limit: 10, windowSeconds: 15 * 60 },
  /** Wrong two-factor codes per account (ADR 054); a right one clears it, as a right password does. */
  twoFactorAttempts: { name: '2fa:user', limit: 10, windowSeconds: 15 * 60 },
  twoFactorIp: { name: '2fa:ip', limit: 30, windowSeconds: 15 * 60 },
  /** E-mail change requests per user (ADR 058): each one mails two addresses and checks a password. */
  emailChange: { name: 'email-change:user', limit: 5, windowSeconds: 60 * 60 },
  /** Data exports and deletion attempts per user (ADR 060): each checks a password. */
  accountExport: { name: 'account-export:user', limit: 5, windowSeconds: 60 * 60 },
  accountDelete: { name: 'account-delete:user', limit: 5, windowSeconds: 60 * 60 },
  /** Passkeys added or removed per user (ADR 054): each checks a password and mails the owner. */
  passkeyChanges: { name: 'passkeys:user', limit: 10, windowSeconds: 60 * 60 },
  /** Recovery-code regenerations per user: each one mails the owner. */
  recoveryCodes: { name: 'recovery-codes:user', limit: 5, windowSeconds: 60 * 60 },
  /**
   * Picture uploads per user, by purpose (ADR 048): a vendor filling a catalogue spends neither the
   * avatar's budget nor the storefront's.
   */
  avatarUpload: { name: 'upload:avatar', limit: 20, windowSeconds: 60 * 60 },
  catalogueImageUpload: { name: 'upload:catalogue-image', limit: 200, windowSeconds: 60 * 60 },
  storefrontImageUpload: { name: 'upload:storefront-image', limit: 30, windowSeconds: 60 * 60 },
  /** Course media and app builds: a course is built from many files in one sitting. */
  mediaUpload: { name: 'media-upload:user', limit: 200, windowSeconds: 60 * 60 },
  analyticsIp: { name: 'analytics:ip', limit: 600, windowSeconds: 60 },
  /** An affiliate invitation's e-mail, per vendor and address: renewals inside it send none. */
  inviteEmail: { name: 'invite-email', limit: 1, windowSeconds: 10 * 60 },
  /**
   * Invitation e-mails per vendor a day; the limit is the contract's, by the vendor's standing
   * (`AFFILIATE_INVITES_PER_DAY`, or `…_NEW_VENDOR`): this is the larger.
   */
  inviteVendorDay: {
    name: 'invite-vendor:day',
    limit: AFFILIATE_INVITES_PER_DAY,
    windowSeconds: 24 * 60 * 60,
  },
  checkoutUser: { name: 'checkout:user', limit: 30, windowSeconds: 15 * 60 },
  /** Coupon codes are guessable secrets: previews are limited per address. */
  couponPreviewIp: { name: 'coupon-preview:ip', limit: 60, windowSeconds: 60 },
  /**
   * The public licence API (ADR 032), per key (its hash) and per address; the limits are
   * `LICENCE_KEY_LIMIT_PER_MINUTE` and `LICENCE_IP_LIMIT_PER_MINUTE`, these are their defaults.
   */
  licenceKey: { name: 'licence:key', limit: 60, windowSeconds: 60 },
  licenceIp: { name: 'licence:ip', limit: 300, windowSeconds: 60 },
  /**
   * Searches per address (IPv6 per /64), search pages and the search box's suggestions alike; the
   * limit is `SEARCH_LIMIT_PER_IP_MINUTE`, this its default. The search box asks once per pause in typing: a person stays far below it.
   */
  searchIp: { name: 'search:ip', limit: 120, windowSeconds: 60 },
  /** A buyer's licence changes and downloads (resets are also capped per licence). */
  licenceUser: { name: 'licence:user', limit: 60, windowSeconds: 15 * 60 },
  /**
   * Vendor API calls per API key (ADR 057); the limit is `API_KEY_LIMIT_PER_MINUTE`, this its
   * default. Unknown or revoked keys count per address, so guessing is limited too.
   */
  apiKey: { name: 'api-key', limit: 120, windowSeconds: 60 },
  apiKeyInvalidIp: { name: 'api-key:invalid-ip', limit: 30, windowSeconds: 60 },
  /** A buyer's download links and downloads of deliverables (ADR 053): a person needs a handful. */
  downloadUser: { name: 'download:user', limit: 60, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateRule>;
