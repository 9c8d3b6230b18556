import { sha256 } from '../../lib.ts';

/*
 * The Discord sandbox's traffic control, in memory (ADR 030): Discord's rate limits (per-route
 * buckets and the global 50 requests/s), injected faults, and a log of every API request for tests
 * and benchmarks. Memory, not PostgreSQL: a write per request would slow the very traffic it measures.
 */

export interface SandboxRateLimits {
  /** Requests per bucket (route and major parameter) per window. */
  routeLimit: number;
  routeWindowMs: number;
  /** Requests per second for one token, over all routes. */
  globalPerSecond: number;
}

export const DEFAULT_RATE_LIMITS: SandboxRateLimits = {
  routeLimit: 10,
  routeWindowMs: 1000,
  globalPerSecond: 50,
};

export type FaultStatus = 403 | 429 | 500 | 503;

export interface SandboxFault {
  /** `PUT /guilds/:g/members/:u/roles/:r`: a method and a route of the API, any parameter names. */
  route: string;
  status: FaultStatus;
  /** How many of the next matching requests fail. */
  count: number;
  /** Seconds, for 429 (default 1). */
  retryAfter?: number;
}

export interface SandboxRequest {
  /** Arrival, ms since the epoch. */
  at: number;
  method: string;
  /** The API route with its parameters named, e.g. `/guilds/:g/members/:u`. */
  route: string;
  path: string;
  status: number;
  guildId: string | null;
  /** `X-Audit-Log-Reason`, decoded. */
  reason: string | null;
}

export interface SandboxStats {
  requests: number;
  /** The most requests that arrived within any one second (a sliding window, 429s included). */
  peakPerSecond: number;
  rateLimited: number;
  /** Requests per `METHOD /route`. */
  routes: Record<string, number>;
  since: string;
}

/** A Discord-shaped answer the traffic control gives instead of the route's own. */
export interface Refusal {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const LOG_CAP = 20_000;

/** `PUT /guilds/:guildId/x` and `put /guilds/:g/x` are the same route. */
export const routeKey = (method: string, route: string) =>
  `${method.toUpperCase()} ${route.replace(/:[^/]+/g, ':')}`;

const seconds = (ms: number) => Math.round(ms) / 1000;

export class SandboxTraffic {
  private limits: SandboxRateLimits;
  private readonly buckets = new Map<string, { remaining: number; resetAt: number }>();
  private readonly globals = new Map<string, { count: number; resetAt: number }>();
  private faults: Array<{ key: string; status: FaultStatus; left: number; retryAfter: number }> =
    [];
  private log: SandboxRequest[] = [];
  /** Arrival times within the last second, for the peak. */
  private window: number[] = [];
  private counters = { requests: 0, peak: 0, rateLimited: 0, routes: {} as Record<string, number> };
  private since = Date.now();

  constructor(limits: Partial<SandboxRateLimits> = {}) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...limits };
  }

  get rateLimits(): SandboxRateLimits {
    return { ...this.limits };
  }

  setRateLimits(limits: Partial<SandboxRateLimits>): void {
    this.limits = { ...this.limits, ...limits };
    this.buckets.clear();
    this.globals.clear();
  }

  injectFault(fault: SandboxFault): void {
    const [method, route] = fault.route.trim().split(/\s+/);
    this.faults.push({
      key: routeKey(method ?? '', route ?? ''),
      status: fault.status,
      left: fault.count,
      retryAfter: fault.retryAfter ?? 1,
    });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Counts a request as it arrives; the entry's status is filled in when it is answered. */
  arrive(entry: SandboxRequest): void {
    const at = entry.at;
    this.counters.requests++;
    const key = routeKey(entry.method, entry.route);
    this.counters.routes[key] = (this.counters.routes[key] ?? 0) + 1;
    this.window.push(at);
    let drop = 0;
    while (this.window[drop]! <= at - 1000) drop++;
    if (drop) this.window = this.window.slice(drop);
    this.counters.peak = Math.max(this.counters.peak, this.window.length);
    this.log.push(entry);
    if (this.log.length > LOG_CAP * 2) this.log = this.log.slice(-LOG_CAP);
  }

  answered(entry: SandboxRequest, status: number): void {
    entry.status = status;
    if (status === 429) this.counters.rateLimited++;
  }

  /** The next injected fault for this request, if any: Discord's answer for that failure. */
  fault(method: string, route: string, now: number): Refusal | null {
    const key = routeKey(method, route);
    const fault = this.faults.find((f) => f.key === key && f.left > 0);
    if (!fault) return null;
    fault.left--;
    this.faults = this.faults.filter((f) => f.left > 0);
    if (fault.status === 429) {
      const bucket = bucketOf(method, route);
      return {
        status: 429,
        body: {
          message: 'You are being rate limited.',
          retry_after: fault.retryAfter,
          global: false,
        },
        headers: {
          'retry-after': String(Math.ceil(fault.retryAfter)),
          'x-ratelimit-limit': String(this.limits.routeLimit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(seconds(now + fault.retryAfter * 1000)),
          'x-ratelimit-reset-after': String(fault.retryAfter),
          'x-ratelimit-bucket': bucket,
          'x-ratelimit-scope': 'user',
        },
      };
    }
    if (fault.status === 403)
      return { status: 403, body: { message: 'Missing Permissions', code: 50013 }, headers: {} };
    return {
      status: fault.status,
      body: {
        message: fault.status === 500 ? '500: Internal Server Error' : '503: Service Unavailable',
        code: 0,
      },
      headers: {},
    };
  }

  /**
   * Admits a request under the global limit of its token and its route's bucket, or refuses it as
   * Discord does. `headers` are the bucket's, for the answer either way.
   */
  admit(
    identity: string,
    method: string,
    route: string,
    major: string,
    now: number,
  ): { headers: Record<string, string>; refusal: Refusal | null } {
    const global = this.globals.get(identity);
    if (global && now < global.resetAt && global.count >= this.limits.globalPerSecond) {
      const retryAfter = seconds(global.resetAt - now);
      return {
        headers: {},
        refusal: {
          status: 429,
          body: { message: 'You are being rate limited.', retry_after: retryAfter, global: true },
          headers: {
            'retry-after': String(Math.ceil(retryAfter)),
            'x-ratelimit-global': 'true',
            'x-ratelimit-scope': 'global',
          },
        },
      };
    }
    const hash = bucketOf(method, route);
    const key = `${identity}|${hash}|${major}`;
    let bucket = this.buckets.get(key);
    if (!bucket || now >= bucket.resetAt) {
      if (this.buckets.size > 10_000) this.sweep(now);
      bucket = { remaining: this.limits.routeLimit, resetAt: now + this.limits.routeWindowMs };
      this.buckets.set(key, bucket);
    }
    const limited = bucket.remaining <= 0;
    if (!limited) bucket.remaining--;
    const headers = {
      'x-ratelimit-limit': String(this.limits.routeLimit),
      'x-ratelimit-remaining': String(bucket.remaining),
      'x-ratelimit-reset': String(seconds(bucket.resetAt)),
      'x-ratelimit-reset-after': String(seconds(bucket.resetAt - now)),
      'x-ratelimit-bucket': hash,
    };
    if (limited) {
      const retryAfter = seconds(bucket.resetAt - now);
      return {
        headers,
        refusal: {
          status: 429,
          body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
          headers: {
            ...headers,
            'retry-after': String(Math.ceil(retryAfter)),
            'x-ratelimit-scope': 'user',
          },
        },
      };
    }
    if (!global || now >= global.resetAt)
      this.globals.set(identity, { count: 1, resetAt: now + 1000 });
    else global.count++;
    return { headers, refusal: null };
  }

  stats(): SandboxStats {
    return {
      requests: this.counters.requests,
      peakPerSecond: this.counters.peak,
      rateLimited: this.counters.rateLimited,
      routes: { ...this.counters.routes },
      since: new Date(this.since).toISOString(),
    };
  }

  /** Starts counting afresh (the log and the limits' state too). */
  reset(): void {
    this.counters = { requests: 0, peak: 0, rateLimited: 0, routes: {} };
    this.window = [];
    this.log = [];
    this.buckets.clear();
    this.globals.clear();
    this.since = Date.now();
  }

  /** Logged requests, oldest first. */
  requests(filter: { guildId?: string; route?: string; limit?: number } = {}): SandboxRequest[] {
    const key = filter.route ? routeKey(...splitRoute(filter.route)) : null;
    const found = this.log.filter(
      (r) =>
        (!filter.guildId || r.guildId === filter.guildId) &&
        (!key || routeKey(r.method, r.route) === key),
    );
    return filter.limit ? found.slice(-filter.limit) : found;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

function splitRoute(route: string): [string, string] {
  const [method, path] = route.trim().split(/\s+/);
  return [method ?? '', path ?? ''];
}

/** An opaque bucket id per route, as Discord's `X-RateLimit-Bucket` is. */
function bucketOf(method: string, route: string): string {
  return sha256(routeKey(method, route)).slice(0, 16);
}
