import { createPlaces, DEFAULT_GEOIP_DATABASE, type Places } from './platform/places.ts';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { DeliverySummary } from '@tradeshelf/contract';
import type PgBoss from 'pg-boss';
import { ConfigError, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { DiscordChat } from './integrations/chat/discord.ts';
import type { ChatProvider } from './integrations/chat/port.ts';
import { SandboxDiscord } from './integrations/chat/sandbox.ts';
import { Mailer } from './integrations/mail/mailer.ts';
import { LogTransport, SmtpTransport, type MailTransport } from './integrations/mail/port.ts';
import type { PaymentsProvider } from './integrations/payments/port.ts';
import { StripePayments } from './integrations/payments/stripe.ts';
import { stripeHttpTransport, StripeSandbox } from './integrations/payments/stripe-sandbox.ts';
import { LocalDiskStorage } from './integrations/storage/local.ts';
import type { Storage } from './integrations/storage/port.ts';
import { S3Storage, s3CredentialsProblem } from './integrations/storage/s3.ts';
import { EventBus, type Subscriber } from './events/bus.ts';
import { subscribers } from './events/subscribers.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { BossJobs, InlineJobs, type Jobs } from './jobs/port.ts';
import { queues } from './jobs/queue.ts';
import { SessionDenials } from './modules/auth/index.ts';
import {
  authenticateApiKey,
  vendorWebhookOwner,
  VENDOR_OWNER,
} from './modules/developers/index.ts';
import { WebhookEngine } from './webhooks/engine.ts';
import { ALERT_BUYER_OWNER, buyerWebhookOwner } from './modules/alerts/index.ts';
import { Sealer } from './platform/seal.ts';
import type { OutboundPolicy } from './platform/outbound-url.ts';
import type { ApiKeyScope } from '@tradeshelf/contract';
import type { AccessClaims } from './platform/tokens.ts';
import { storedCourseBytes } from './modules/courses/index.ts';
import { deliverySummary, storedDeliverableBytes } from './modules/deliverables/index.ts';
import {
  FallbackRateLimitStore,
  MemoryRateLimitStore,
  RateLimiter,
  type RateLimitStore,
} from './platform/rate-limit.ts';
import { TokenService } from './platform/tokens.ts';
import { Cursors } from './platform/cursor.ts';
import { Uploads } from './platform/uploads.ts';
import { publicOrigin } from './platform/origin.ts';
import { createMetrics, type Metrics } from './platform/metrics.ts';

export interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Everything the modules need from the outside world, built once per process. */
export interface AppDeps {
  config: Config;
  database: Database;
  tokens: TokenService;
  /** Signs and checks the page cursors every list hands out (ADR 051). */
  cursors: Cursors;
  /** Ended sign-ins whose access tokens are refused (ADR 021). */
  denials: SessionDenials;
  /** Where an address is, for the device list (ADR 065). */
  places: Places;
  limiter: RateLimiter;
  mailer: Mailer;
  mailTransport: MailTransport;
  storage: Storage;
  payments: PaymentsProvider;
  /** The Stripe sandbox served at `/v1` with its hosted pages, when the adapter talks to it. */
  stripeSandbox: StripeSandbox | null;
  /** Discord, or the app's own look-alike over HTTP (ADR 030). Member events start with `startMemberWatch`. */
  chat: ChatProvider;
  /** The Discord sandbox, when it is the provider: its pages and API are served by this app. */
  discordSandbox: SandboxDiscord | null;
  boss: PgBoss | null;
  /** Work done after answering: pg-boss when there is a queue, else in this process. */
  jobs: Jobs;
  /** Domain events: published in the writer's transaction, delivered to subscribers (ADR 028). */
  events: EventBus;
  redis: Redis | null;
  /** File uploads under way in this process and the vendors' storage budget (ADR 048). */
  uploads: Uploads;
  /**
   * What a product delivers, for its page (issue 29): the catalog reads it here, since the delivery
   * modules it comes from build on the catalog (ADR 053).
   */
  deliveries: { summaryOf(productId: string, kind: string): Promise<DeliverySummary> };
  /** Prometheus metrics of this process (`/metrics`). */
  metrics: Metrics;
  /** Outbound webhooks (ADR 057): the outbox, signed delivery, retries, turning endpoints off. */
  webhooks: WebhookEngine;
  /** Vendor API keys in place of a session on routes that name a scope (ADR 057). */
  apiKeys: { authenticate(key: string, scope: ApiKeyScope, ip: string): Promise<AccessClaims> };
  close(): Promise<void>;
}

export function createDeps(
  config: Config,
  database: Database,
  log: Logger,
  options: {
    boss?: PgBoss | null;
    mailTransport?: MailTransport;
    payments?: PaymentsProvider;
    chat?: ChatProvider;
    rateLimitStore?: RateLimitStore;
    /** How stale this node's copy of the session denials may get (default 5 s). */
    denialSyncMs?: number;
    /** Replaces the modules' event subscribers (tests of the event machinery). */
    subscribers?: Subscriber[];
    /** How webhook host names resolve (tests of the address checks); default: the system's. */
    resolve?: OutboundPolicy['resolve'];
  } = {},
): AppDeps {
  const redis = config.REDIS_URL
    ? connectRedis(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS)
    : null;
  // Logged once per outage, not per request or per reconnect attempt (ADR 050).
  const shared =
    redis &&
    new FallbackRateLimitStore(redis, {
      down: (err) =>
        log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          "redis unreachable; rate limits count in this node's memory until it answers",
        ),
      up: () => log.info({}, 'redis answers again; rate limits are shared again'),
    });
  const store = options.rateLimitStore ?? shared ?? new MemoryRateLimitStore();

  const mailTransport =
    options.mailTransport ??
    (config.SMTP_URL
      ? new SmtpTransport(config.SMTP_URL)
      : new LogTransport((obj, msg) => log.info(obj, msg)));

  const boss = options.boss ?? null;
  const mailer: Mailer = new Mailer(database.db, mailTransport, config.MAIL_FROM, async (ids) => {
    if (boss) {
      for (const id of ids) await boss.send(queues.mailDeliver, { id }, { singletonKey: id });
      return;
    }
    // No queue (tests, one-off scripts): deliver now; a failure stays pending in the outbox.
    for (const id of ids) {
      await mailer.deliver(id).catch((err: unknown) => {
        log.warn(
          { err: err instanceof Error ? err.message : String(err), id },
          'mail delivery failed',
        );
      });
    }
  });

  const storage = createStorage(config);

  const stripeSandbox = config.STRIPE_SANDBOX
    ? new StripeSandbox(
        database.db,
        {
          secretKey: config.STRIPE_SECRET_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
          publicUrl: publicOrigin(config),
        },
        // A worker process has no app to deliver into: it posts to the app as Stripe would.
        stripeHttpTransport(config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`),
      )
    : null;
  // One adapter: Stripe itself, or the app's own sandbox at the same paths (ADR 055).
  const payments: PaymentsProvider =
    options.payments ??
    new StripePayments({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
    });

  const discordSandbox = config.DISCORD_SANDBOX
    ? new SandboxDiscord(database.db, {
        clientId: config.DISCORD_CLIENT_ID,
        clientSecret: config.DISCORD_CLIENT_SECRET,
        botToken: config.DISCORD_BOT_TOKEN,
      })
    : null;
  // The sandbox is reached over HTTP and its gateway like Discord: the adapter runs one code path.
  const chat: ChatProvider =
    options.chat ??
    new DiscordChat({
      apiUrl: config.DISCORD_API_URL,
      webUrl: config.DISCORD_WEB_URL,
      inviteUrl: config.DISCORD_SANDBOX ? `${config.DISCORD_WEB_URL}/invite` : 'https://discord.gg',
      clientId: config.DISCORD_CLIENT_ID,
      clientSecret: config.DISCORD_CLIENT_SECRET,
      botToken: config.DISCORD_BOT_TOKEN,
    });

  const jobs: Jobs = boss
    ? new BossJobs(boss)
    : new InlineJobs(
        async (name, data) => {
          const handler = jobHandlers(deps)[name];
          if (!handler) throw new Error(`no handler for job ${name}`);
          await handler(data);
        },
        (err, name) =>
          log.error(
            { err: err instanceof Error ? err.message : String(err), job: name },
            'job failed',
          ),
      );

  const denials = new SessionDenials(database.db, config.ACCESS_TOKEN_TTL_SECONDS, {
    ...(options.denialSyncMs !== undefined ? { syncMs: options.denialSyncMs } : {}),
    onError: (err) =>
      log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not read session denials; using the last copy',
      ),
  });

  const deps: AppDeps = {
    config,
    database,
    payments,
    stripeSandbox,
    chat,
    discordSandbox,
    tokens: new TokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS, (sid) =>
      denials.isDenied(sid),
    ),
    cursors: new Cursors(config.CODE_SECRET),
    denials,
    places: createPlaces(
      config.GEOIP_DATABASE === 'off' ? null : (config.GEOIP_DATABASE ?? DEFAULT_GEOIP_DATABASE()),
      log,
    ),
    limiter: new RateLimiter(store),
    mailer,
    mailTransport,
    storage,
    boss,
    jobs,
    events: new EventBus(options.subscribers ?? subscribers(() => deps), () =>
      jobs.send(queues.eventsDeliver, {}),
    ),
    redis,
    uploads: new Uploads({
      perProcess: config.UPLOADS_PER_PROCESS,
      perAccount: config.UPLOADS_PER_ACCOUNT,
      perAddress: config.UPLOADS_PER_ADDRESS,
      budgetBytes: config.VENDOR_STORAGE_MB * 1024 * 1024,
      storedBytes: async (db, vendorId) =>
        (await storedCourseBytes(db, vendorId)) + (await storedDeliverableBytes(db, vendorId)),
    }),
    deliveries: { summaryOf: (productId, kind) => deliverySummary(deps, productId, kind) },
    metrics: createMetrics({ database, boss }),
    webhooks: new WebhookEngine(
      {
        policy: {
          allowHttp: config.APP_ENV !== 'production',
          allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
          ...(options.resolve ? { resolve: options.resolve } : {}),
        },
        timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
        disableAfter: config.WEBHOOK_DISABLE_AFTER_FAILURES,
        retryHours: config.WEBHOOK_RETRY_HOURS,
        firstRetryWaitMs: 10_000,
        maxRetryWaitMs: 3_600_000,
      },
      new Sealer(`webhooks:${config.CODE_SECRET}`),
      {
        [VENDOR_OWNER]: vendorWebhookOwner(() => deps),
        [ALERT_BUYER_OWNER]: buyerWebhookOwner(() => deps),
      },
      (tx) => jobs.send(queues.webhooksDeliver, {}, tx ? { tx } : {}),
      (owner, outcome, lag) => {
        deps.metrics.webhooksOut.inc({ owner, outcome });
        if (lag !== null) deps.metrics.webhookOutLag.observe({ owner }, lag);
      },
    ),
    apiKeys: { authenticate: (key, scope, ip) => authenticateApiKey(deps, key, scope, ip) },
    async close() {
      await chat.close();
      mailTransport.close?.();
      if (redis) redis.disconnect();
    },
  };
  return deps;
}

/**
 * A Redis client that fails fast (ADR 050): with no offline queue a command while disconnected fails
 * at once, and one sent to a Redis that stopped answering fails after the command timeout, so a
 * request never waits for reconnects. The client reconnects in the background for ever.
 */
export function connectRedis(url: string, commandTimeoutMs: number): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    // Only reconnects wait on these, never a request.
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}

/**
 * Refuses S3 storage the SDK finds no credentials for, before the app starts (ADR 049): it would
 * start and then answer 500 to every upload.
 */
export async function checkStorage(config: Config, timeoutMs = 5000): Promise<void> {
  if (config.STORAGE_DRIVER !== 's3') return;
  const problem = await s3CredentialsProblem(config.S3_REGION, timeoutMs);
  if (problem)
    throw new ConfigError([
      `STORAGE_DRIVER=s3: no AWS credentials (${problem}); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or give the host or task a role`,
    ]);
}

/** The storage adapter the configuration names (also used by the seed CLI, which has no app). */
export function createStorage(config: Config): Storage {
  return config.STORAGE_DRIVER === 's3'
    ? new S3Storage(config.S3_BUCKET!, {
        region: config.S3_REGION,
        ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
        ...(config.S3_PUBLIC_URL ? { publicBaseUrl: config.S3_PUBLIC_URL } : {}),
        ...(config.S3_SIGNED_URL_ENDPOINT
          ? { signedUrlEndpoint: config.S3_SIGNED_URL_ENDPOINT }
          : {}),
      })
    : new LocalDiskStorage(path.resolve(config.DATA_DIR, 'files'), config.STORAGE_SECRET);
}
