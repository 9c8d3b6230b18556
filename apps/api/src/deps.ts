import path from 'node:path';
import { Redis } from 'ioredis';
import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { Mailer } from './integrations/mail/mailer.ts';
import { LogTransport, SmtpTransport, type MailTransport } from './integrations/mail/port.ts';
import type { PaymentsProvider } from './integrations/payments/port.ts';
import { SandboxPayments } from './integrations/payments/sandbox.ts';
import { StripePayments } from './integrations/payments/stripe.ts';
import { LocalDiskStorage } from './integrations/storage/local.ts';
import type { Storage } from './integrations/storage/port.ts';
import { S3Storage } from './integrations/storage/s3.ts';
import { queues } from './jobs/queue.ts';
import {
  MemoryRateLimitStore,
  RateLimiter,
  RedisRateLimitStore,
  type RateLimitStore,
} from './platform/rate-limit.ts';
import { TokenService } from './platform/tokens.ts';

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
  limiter: RateLimiter;
  mailer: Mailer;
  mailTransport: MailTransport;
  storage: Storage;
  payments: PaymentsProvider;
  /** The payment sandbox, when it is the provider (its hosted pages need more than the port). */
  sandbox: SandboxPayments | null;
  boss: PgBoss | null;
  redis: Redis | null;
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
    rateLimitStore?: RateLimitStore;
  } = {},
): AppDeps {
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : null;
  redis?.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  const store =
    options.rateLimitStore ?? (redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore());

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

  const storage: Storage =
    config.STORAGE_DRIVER === 's3'
      ? new S3Storage(config.S3_BUCKET!, {
          region: config.S3_REGION,
          ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
          ...(config.S3_PUBLIC_URL ? { publicBaseUrl: config.S3_PUBLIC_URL } : {}),
        })
      : new LocalDiskStorage(path.resolve(config.DATA_DIR, 'files'), config.STORAGE_SECRET);

  const sandbox =
    config.PAYMENTS_PROVIDER === 'sandbox'
      ? new SandboxPayments(database.db, config.SANDBOX_WEBHOOK_SECRET)
      : null;
  const payments: PaymentsProvider =
    options.payments ??
    sandbox ??
    new StripePayments({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
    });

  return {
    config,
    database,
    payments,
    sandbox,
    tokens: new TokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS),
    limiter: new RateLimiter(store),
    mailer,
    mailTransport,
    storage,
    boss,
    redis,
    async close() {
      mailTransport.close?.();
      if (redis) redis.disconnect();
    },
  };
}
