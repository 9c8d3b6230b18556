import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** Estimated bits a secret must carry (ADR 049); 16 random bytes in hex score about 90 to 125. */
export const SECRET_MIN_BITS = 80;

/**
 * Bits by the spread of its characters (Shannon, times its length): 32 identical characters carry
 * none, `abab…` one per character. A pattern of many characters still passes; it catches the lazy.
 */
export function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  const length = [...value].length;
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / length) * Math.log2(n / length);
  return Math.floor(perChar * length);
}

const secret = z
  .string()
  .min(32, 'must be at least 32 characters')
  .superRefine((v, ctx) => {
    const bits = estimatedBits(v);
    if (bits < SECRET_MIN_BITS)
      ctx.addIssue({
        code: 'custom',
        message: `too predictable (about ${bits} bits, ${SECRET_MIN_BITS} needed): use random bytes, e.g. \`openssl rand -base64 32\``,
      });
  });

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` accepts in a list. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry) || isIP(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length || !address || !bits || !/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(address);
  // A range wider than /8 (IPv6: /7, the unique-local block) takes in public addresses:
  // `0.0.0.0/1,128.0.0.0/1` would believe every peer, as the refused `true` does.
  const widest = family === 4 ? 8 : 7;
  return family !== 0 && Number(bits) >= widest && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops in front of the app to believe (ADR 049), in the shapes Fastify's `trustProxy` takes:
 * `false`, a number of proxies (their X-Forwarded-For entries are read from the right), or their
 * addresses and CIDRs. `true` would believe the left-most entry, which the client writes: refused.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string[] => {
    const v = raw.trim();
    if (v === 'false' || v === '0') return false;
    if (v === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          '`true` would take the client address from the left of X-Forwarded-For, which the client writes: give the number of proxies in front of the app (e.g. 1 for one load balancer) or their addresses/CIDRs (e.g. 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'at most 10 proxies' });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isAddressOrRange(e));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `not a hop count, address or CIDR of /8 (IPv6 /7) or narrower: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const envSchema = z.object({
  APP_ENV: z.enum(['local', 'sandbox', 'production']).default('local'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: loopback in `local` (its /dev pages hold codes), every interface elsewhere. */
  HOST: z.string().optional(),
  /**
   * Public origin of the app: e-mail links, redirect URIs, sitemaps and canonical URLs (never the
   * request's Host, ADR 049). Required in production; elsewhere `http://localhost:PORT`.
   */
  PUBLIC_URL: z.url().optional(),
  /**
   * The origin passkeys are made for and used on (WebAuthn; its host is the relying party id).
   * Unset: PUBLIC_URL's. Browsers offer passkeys only on https and on http://localhost, so a run
   * served at http://127.0.0.1 (the e2e suite) names http://localhost:PORT here.
   */
  PASSKEY_ORIGIN: z.url().optional(),
  /**
   * The MMDB file the device list reads a sign-in's place from (ADR 065). Unset: DB-IP's country
   * database that ships with the app; `off`: no places.
   */
  GEOIP_DATABASE: z.string().min(1).optional(),
  DATABASE_URL: z.url().optional(),
  /**
   * A streaming replica (or a PgBouncer pool in front of replicas) for public catalogue reads
   * (ADR 061). Unset: every read goes to DATABASE_URL.
   */
  DATABASE_READ_URL: z.url().optional(),
  /**
   * Connections of this node's pool to DATABASE_URL. With PgBouncer in front, its pool must hold
   * every node's DATABASE_POOL_SIZE + JOBS_POOL_SIZE at once, or requests wait and answer 503.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /** Connections of this node's pool to DATABASE_READ_URL. */
  DATABASE_READ_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /** Connections of this node's job queue (pg-boss) to DATABASE_URL. */
  JOBS_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(4),
  DATA_DIR: z.string().default('./.data'),
  REDIS_URL: z.url().optional(),
  /** How long a rate-limit count waits on Redis before this node counts in memory (ADR 050). */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().default('Tradeshelf <no-reply@tradeshelf.local>'),
  /** Where contact-form messages go; replies to confirmations reach it too. */
  SUPPORT_EMAIL: z.email().default('support@tradeshelf.local'),
  JWT_SECRET: secret.optional(),
  CODE_SECRET: secret.optional(),
  STORAGE_SECRET: secret.optional(),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_PUBLIC_URL: z.url().optional(),
  S3_SIGNED_URL_ENDPOINT: z.url().optional(),
  /**
   * Sign-ups one address may make in an hour. Raise it where many people share one address (a
   * school, carrier NAT); the browser suite signs up a dozen accounts from loopback.
   */
  SIGNUP_LIMIT_PER_IP_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * Log-in attempts (password or passkey) one address may make in 15 minutes. Raise it where many
   * people share one address; the browser suite logs in some forty times from loopback.
   */
  LOGIN_LIMIT_PER_IP_15_MINUTES: z.coerce.number().int().min(1).max(100_000).default(30),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_MINUTES: z.coerce.number().int().min(5).max(525_600).default(43_200),
  /** How long a signed course video, caption or attachment URL works (ADR 033). */
  COURSE_MEDIA_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /** Largest lesson video a vendor may upload (streamed to storage, ADR 048), in MiB. */
  COURSE_VIDEO_MAX_MB: z.coerce.number().int().min(1).max(2048).default(200),
  /**
   * Searches one address may make in a minute (search pages, suggestions as one types); over it,
   * 429. Raise it where many people share one address.
   */
  SEARCH_LIMIT_PER_IP_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** What one vendor's videos, attachments and builds may take in storage altogether, in MiB. */
  VENDOR_STORAGE_MB: z.coerce.number().int().min(1).max(10_000_000).default(2048),
  /** Kept-file uploads (videos, attachments, builds) one process takes at once; past it: 503 (ADR 048). */
  UPLOADS_PER_PROCESS: z.coerce.number().int().min(1).max(1000).default(8),
  /** File uploads one account has under way at once (per process); past it: 429. */
  UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(3),
  /** The same from one client address (IPv6 per /64): accounts cost nothing to make. */
  UPLOADS_PER_ADDRESS: z.coerce.number().int().min(1).max(100).default(3),
  /** How long a search's result ids are reused for the same query; 0 turns the cache off. */
  SEARCH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** How long a public page's HTML is served again from memory; 0 renders every request. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /**
   * Always `stripe`: one adapter (ADR 055). Outside production it talks to the app's own Stripe
   * sandbox (`/v1` on this origin) unless `STRIPE_API_URL` points at Stripe.
   */
  PAYMENTS_PROVIDER: z
    .enum(['stripe'], {
      error:
        'must be stripe (the sandbox is reached by the Stripe adapter: leave STRIPE_API_URL unset)',
    })
    .default('stripe'),
  /** Outside `local`, required; in `local` the sandbox's well-known test keys (`SANDBOX_STRIPE`). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /**
   * The Stripe API origin. Unset outside production: the app's own sandbox (`/v1` on this origin);
   * `https://api.stripe.com` with test-mode keys reaches Stripe itself. Unset in production.
   */
  STRIPE_API_URL: z.url().optional(),
  /**
   * Always `discord`: one adapter (ADR 030). Without Discord credentials outside production it talks
   * to the app's own Discord sandbox under /sandbox/discord, which speaks Discord's API and gateway.
   */
  CHAT_PROVIDER: z
    .enum(['discord'], {
      error:
        'must be discord (the sandbox is reached by the Discord adapter: leave DISCORD_* unset)',
    })
    .default('discord'),
  /**
   * Discord's API base without the version; the gateway's URL comes from its `GET /gateway/bot`.
   * Sandbox: the app's own `/sandbox/discord/api`.
   */
  DISCORD_API_URL: z.url().optional(),
  /** Where the OAuth2 pages live; sandbox: the app's own `/sandbox/discord`. */
  DISCORD_WEB_URL: z.url().optional(),
  DISCORD_CLIENT_ID: z
    .string()
    .regex(/^\d{17,20}$/, 'must be a Discord application id')
    .optional(),
  DISCORD_CLIENT_SECRET: z.string().optional(),
  DISCORD_BOT_TOKEN: z.string().optional(),
  /** Platform fee on each payment: basis points of the total plus a fixed amount in minor units. */
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(500),
  PLATFORM_FEE_FIXED: z.coerce.number().int().min(0).max(100_000).default(30),
  /**
   * Days a referred sale's commission is held before it can be paid out (ADR 037): longer than the
   * refund window, so most refunds claw back money that never left.
   */
  AFFILIATE_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** The smallest payout, in minor units of the payout's currency. */
  AFFILIATE_MIN_PAYOUT: z.coerce.number().int().min(1).max(100_000_000).default(5000),
  /** How long an unpaid checkout holds a coupon redemption before it is released. */
  /** Minutes between reconciliations of every bound Discord server (ADR 031); a divisor of 60. */
  ACCESS_RECONCILE_MINUTES: z.coerce
    .number()
    .int()
    .refine((n) => [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60].includes(n), 'a divisor of 60')
    .default(60),
  /** Licence API calls (activate, validate, deactivate) per key per minute (ADR 032). */
  LICENCE_KEY_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** Licence API calls per client address (IPv6 per /64) per minute. */
  LICENCE_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /** Vendor API calls per API key per minute (ADR 057). */
  API_KEY_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * Lets webhooks reach private, loopback and link-local addresses (ADR 057): tests and a receiver
   * on this machine only. Refused in production.
   */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Failed webhook attempts in a row after which an endpoint is turned off and its vendor told. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(1000).default(15),
  /** How long a webhook delivery is retried (backoff doubling from 10 s, at most an hour apart). */
  WEBHOOK_RETRY_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  /** How long an endpoint has to answer one delivery. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
  /** Alerts (ADR 059): alerts one feed may publish per minute, from every source together. */
  ALERTS_PER_FEED_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Minutes within which an alert with the same id (or webhook body) is not sent again. */
  ALERTS_REPLAY_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** Seconds an alert e-mail waits, so alerts arriving together go out as one e-mail. */
  ALERTS_MAIL_BATCH_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Seconds between the live stream's checks for alerts published on other nodes. */
  ALERTS_LIVE_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Minutes between the demo feed's sandbox signals under `npm start` (0: off; never in production). */
  ALERTS_DEMO_SIGNAL_MINUTES: z.coerce.number().int().min(0).max(59).default(5),
  /** Hours a TradingView revocation may wait before the vendor is reminded (ADR 034). */
  TRADINGVIEW_REVOKE_GRACE_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  /** Minutes between checks for overdue TradingView revocations; a divisor of 60. */
  TRADINGVIEW_REMINDER_MINUTES: z.coerce
    .number()
    .int()
    .refine((n) => [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60].includes(n), 'a divisor of 60')
    .default(15),
  CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(30).max(1440).default(60),
  /** How long a client may take to send one whole request (headers and body). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /**
   * How long one kept-file upload (video, attachment, build) may take in all; its body may pause
   * for no longer than REQUEST_TIMEOUT_SECONDS (ADR 048).
   */
  UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** On shutdown, how long in-flight requests may run before their connections are cut. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  TRUST_PROXY: trustProxy,
  /**
   * pino level. Unset: `info` (request logs on), except `warn` locally with JSON logs, so `npm start`
   * piped somewhere shows its banner and demo accounts rather than JSON lines per request.
   */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /**
   * `pretty`: one short line per request and per message, for people. Unset: `pretty` locally when
   * stdout is a terminal, else `json` (production, or logs collected by a machine).
   */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /**
   * Bearer token for `/metrics` from other hosts (a Prometheus elsewhere). Unset: `/metrics` answers
   * loopback only; everyone else gets 404.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** The worker process (`npm run worker`) serves `/metrics` on this port; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Seed the demo catalogue and accounts on first start. */
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Run the job worker inside the web process. */
  RUN_WORKER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

type DiscordSettings =
  | 'DISCORD_API_URL'
  | 'DISCORD_WEB_URL'
  | 'DISCORD_CLIENT_ID'
  | 'DISCORD_CLIENT_SECRET'
  | 'DISCORD_BOT_TOKEN';

export type Config = Omit<
  z.infer<typeof envSchema>,
  'HOST' | 'JWT_SECRET' | 'CODE_SECRET' | 'STORAGE_SECRET' | DiscordSettings
> & {
  HOST: string;
  LOG_LEVEL: NonNullable<z.infer<typeof envSchema>['LOG_LEVEL']>;
  LOG_FORMAT: NonNullable<z.infer<typeof envSchema>['LOG_FORMAT']>;
  /**
   * The app serves the Discord sandbox and the adapter talks to it: outside production, when no
   * Discord application is configured (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_BOT_TOKEN).
   */
  DISCORD_SANDBOX: boolean;
  /** Resolved: the sandbox's own URLs and credentials unless set. */
  DISCORD_API_URL: string;
  DISCORD_WEB_URL: string;
  DISCORD_CLIENT_ID: string;
  DISCORD_CLIENT_SECRET: string;
  DISCORD_BOT_TOKEN: string;
  JWT_SECRET: string;
  CODE_SECRET: string;
  STORAGE_SECRET: string;
  /** The app serves the Stripe sandbox (`/v1`) and the adapter talks to it: `STRIPE_API_URL` is this origin. */
  STRIPE_SANDBOX: boolean;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Every secret the nodes of one installation must share (web nodes and workers alike): sessions
 * signed on one node are checked on another, cursors and sealed values cross nodes, signed file URLs
 * are served by any node, and the Stripe sandbox's keys derive from CODE_SECRET. A node sharing a
 * database with others must be given them: one that minted its own would sign what no other accepts.
 */
export const SHARED_SECRETS = ['JWT_SECRET', 'CODE_SECRET', 'STORAGE_SECRET'] as const;
const secretNames = SHARED_SECRETS;

/** Reads `.env` from the working directory when present (variables already set win). */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Parses the environment once; lists every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset (as in `DATABASE_URL= npm start`).
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`),
    );
  }
  const cfg = parsed.data;
  // Local runs reach the app's own Stripe sandbox (`/v1`) with its well-known test keys.
  if (cfg.APP_ENV === 'local') {
    cfg.STRIPE_SECRET_KEY ??= SANDBOX_STRIPE.secretKey;
    cfg.STRIPE_WEBHOOK_SECRET ??= SANDBOX_STRIPE.webhookSecret;
  }
  const problems: string[] = [];
  if (cfg.APP_ENV === 'production') {
    for (const name of secretNames)
      if (!cfg[name])
        problems.push(
          `${name}: required in production (every node shares it; see SHARED_SECRETS in config.ts)`,
        );
    if (!cfg.DATABASE_URL) problems.push('DATABASE_URL: required in production');
    if (!cfg.PUBLIC_URL)
      problems.push(
        'PUBLIC_URL: required in production (the origin e-mail links and sitemaps point at)',
      );
    if (!cfg.SMTP_URL) problems.push('SMTP_URL: required in production');
    if (cfg.PASSKEY_ORIGIN && !cfg.PASSKEY_ORIGIN.startsWith('https://'))
      problems.push('PASSKEY_ORIGIN: must be https in production');
    if (cfg.STORAGE_DRIVER !== 's3') problems.push('STORAGE_DRIVER: must be s3 in production');
    for (const name of ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'] as const)
      if (!cfg[name]) problems.push(`${name}: required in production`);
    // Production talks to Discord itself: the sandbox is served nowhere there.
    if (cfg.DISCORD_API_URL && trimUrl(cfg.DISCORD_API_URL) !== DISCORD_API)
      problems.push(`DISCORD_API_URL: must be ${DISCORD_API} in production`);
    if (cfg.DISCORD_WEB_URL && trimUrl(cfg.DISCORD_WEB_URL) !== DISCORD_WEB)
      problems.push(`DISCORD_WEB_URL: must be ${DISCORD_WEB} in production`);
  }
  // A sandbox on a database server is one node of possibly many: it joins with the shared secrets
  // rather than minting its own into DATA_DIR (a local run on one machine still may).
  if (cfg.APP_ENV === 'sandbox' && cfg.DATABASE_URL)
    for (const name of secretNames)
      if (!cfg[name])
        problems.push(
          `${name}: required with DATABASE_URL outside local (every node shares it; see SHARED_SECRETS in config.ts)`,
        );
  if (cfg.DATABASE_READ_URL && !cfg.DATABASE_URL)
    problems.push('DATABASE_READ_URL: needs DATABASE_URL (the primary every write goes to)');
  if (cfg.APP_ENV === 'production' && cfg.WEBHOOKS_ALLOW_PRIVATE)
    problems.push('WEBHOOKS_ALLOW_PRIVATE: private addresses are never reachable in production');
  if (cfg.STORAGE_DRIVER === 's3' && !cfg.S3_BUCKET) {
    problems.push('S3_BUCKET: required when STORAGE_DRIVER=s3');
  }
  if (cfg.APP_ENV === 'production' && cfg.STRIPE_API_URL)
    problems.push('STRIPE_API_URL: production reaches Stripe itself');
  // Outside production Stripe is the app's own sandbox (`/v1` on this origin) unless told otherwise.
  const ownOrigin = (cfg.PUBLIC_URL ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/$/, '');
  if (cfg.APP_ENV !== 'production') cfg.STRIPE_API_URL ??= ownOrigin;
  const STRIPE_SANDBOX =
    cfg.APP_ENV !== 'production' && trimUrl(cfg.STRIPE_API_URL ?? '') === ownOrigin;
  // Real Stripe needs its keys; the app's own sandbox in `sandbox` makes its own (below).
  if (!STRIPE_SANDBOX) {
    if (!cfg.STRIPE_SECRET_KEY)
      problems.push('STRIPE_SECRET_KEY: required when Stripe itself is reached');
    if (!cfg.STRIPE_WEBHOOK_SECRET)
      problems.push('STRIPE_WEBHOOK_SECRET: required when Stripe itself is reached');
  }
  const discordApp = ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'] as const;
  if (cfg.APP_ENV !== 'production' && discordApp.some((n) => cfg[n]))
    for (const name of discordApp)
      if (!cfg[name])
        problems.push(
          `${name}: required with the other DISCORD_* settings of a Discord application`,
        );
  if (problems.length) throw new ConfigError(problems);

  const secrets = resolveSecrets(cfg);
  // A public sandbox must not take the well-known local keys: its own, derived from a shared secret so
  // every node (and the worker) agrees.
  if (STRIPE_SANDBOX) {
    const derive = (what: string) =>
      createHmac('sha256', secrets.CODE_SECRET)
        .update(`stripe-sandbox:${what}`)
        .digest('base64url');
    cfg.STRIPE_SECRET_KEY ??= `sk_test_${derive('key')}`;
    cfg.STRIPE_WEBHOOK_SECRET ??= `whsec_${derive('endpoint')}`;
  }
  const HOST = cfg.HOST ?? (cfg.APP_ENV === 'local' ? '127.0.0.1' : '0.0.0.0');
  const LOG_FORMAT =
    cfg.LOG_FORMAT ?? (cfg.APP_ENV === 'local' && process.stdout.isTTY ? 'pretty' : 'json');
  // Pretty lines are short enough to show every request; local JSON stays quiet.
  const LOG_LEVEL =
    cfg.LOG_LEVEL ?? (cfg.APP_ENV === 'local' && LOG_FORMAT === 'json' ? 'warn' : 'info');
  return {
    ...cfg,
    HOST,
    LOG_LEVEL,
    LOG_FORMAT,
    STRIPE_SANDBOX,
    ...secrets,
    ...discordSettings(cfg),
  };
}

/**
 * The Stripe sandbox's keys in `local`: they guard nothing real (a test-mode key and endpoint secret
 * in Stripe's formats), and a worker process must agree with the app.
 */
export const SANDBOX_STRIPE = {
  secretKey: 'sk_test_tradeshelf_sandbox_local',
  webhookSecret: 'whsec_tradeshelf_sandbox_local',
} as const;

/** The sandbox's well-known app: it guards nothing real, and a worker process must agree with the app. */
export const SANDBOX_DISCORD = {
  clientId: '1234567890123456789',
  clientSecret: 'sandbox-discord-client-secret',
  botToken: 'sandbox-discord-bot-token',
} as const;

const DISCORD_API = 'https://discord.com/api';
const DISCORD_WEB = 'https://discord.com';
const trimUrl = (url: string) => url.replace(/\/$/, '');

function discordSettings(
  cfg: z.infer<typeof envSchema>,
): Pick<Config, DiscordSettings | 'DISCORD_SANDBOX'> {
  if (cfg.DISCORD_BOT_TOKEN) {
    return {
      DISCORD_SANDBOX: false,
      DISCORD_API_URL: trimUrl(cfg.DISCORD_API_URL ?? DISCORD_API),
      DISCORD_WEB_URL: trimUrl(cfg.DISCORD_WEB_URL ?? DISCORD_WEB),
      DISCORD_CLIENT_ID: cfg.DISCORD_CLIENT_ID!,
      DISCORD_CLIENT_SECRET: cfg.DISCORD_CLIENT_SECRET!,
      DISCORD_BOT_TOKEN: cfg.DISCORD_BOT_TOKEN,
    };
  }
  // A worker process reaches the sandbox over HTTP and its gateway, as the app's own adapter does.
  const origin = trimUrl(cfg.PUBLIC_URL ?? `http://127.0.0.1:${cfg.PORT}`);
  return {
    DISCORD_SANDBOX: true,
    DISCORD_API_URL: trimUrl(cfg.DISCORD_API_URL ?? `${origin}/sandbox/discord/api`),
    DISCORD_WEB_URL: trimUrl(cfg.DISCORD_WEB_URL ?? `${origin}/sandbox/discord`),
    DISCORD_CLIENT_ID: SANDBOX_DISCORD.clientId,
    DISCORD_CLIENT_SECRET: SANDBOX_DISCORD.clientSecret,
    DISCORD_BOT_TOKEN: SANDBOX_DISCORD.botToken,
  };
}

/** Outside production, missing secrets are generated once and kept in DATA_DIR. */
function resolveSecrets(
  cfg: z.infer<typeof envSchema>,
): Record<(typeof secretNames)[number], string> {
  const file = path.join(cfg.DATA_DIR, 'secrets.json');
  let stored: Partial<Record<string, string>> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  let changed = false;
  const out = {} as Record<(typeof secretNames)[number], string>;
  for (const name of secretNames) {
    const value = cfg[name] ?? stored[name];
    if (value) {
      out[name] = value;
    } else {
      out[name] = randomBytes(32).toString('base64url');
      stored[name] = out[name];
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(cfg.DATA_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return out;
}
