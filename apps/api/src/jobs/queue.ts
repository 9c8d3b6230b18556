import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { createPool } from '../db/client.ts';

export const queues = {
  mailDeliver: 'mail.deliver',
  mailSweep: 'mail.sweep',
  checkoutExpiry: 'orders.expire-checkouts',
  paymentsRetry: 'payments.retry',
  /** New-listing e-mails for members' saved searches (ADR 027). */
  savedSearchAlerts: 'membership.saved-search-alerts',
  /** Account mail sent after the request answered, so its timing says nothing (ADR 021). */
  authResetMail: 'auth.reset-mail',
  authActivationMail: 'auth.activation-mail',
  /** Delivers the e-mail telling an owner someone tried to sign up with their address (ADR 003). */
  authSignupNotice: 'auth.signup-notice',
  /**
   * Delivers an account notice (password changed, new device, two-factor, e-mail change; ADR 058),
   * so the answer never waits on it.
   */
  authNotice: 'auth.notice',
  /** Domain event delivery (ADR 028): woken after a publishing commit, and swept every minute. */
  eventsDeliver: 'events.deliver',
  /** Access delivery (ADR 031): one user's Discord roles brought to their entitlements. */
  accessConverge: 'access.discord-converge',
  /** Every bound server compared with the entitlements, both ways. */
  accessReconcile: 'access.discord-reconcile',
  /** TradingView access (ADR 034): a buyer's grants brought to their access; vendor mail sent. */
  tradingviewSync: 'tradingview.sync',
  tradingviewMail: 'tradingview.mail',
  /** Overdue revocations: the vendor is reminded once per task. */
  tradingviewReminders: 'tradingview.reminders',
  /** "Version X of … is out" to a product's owners (ADR 053), queued by the publish. */
  deliverablesVersionMail: 'deliverables.version-mail',
  /** Outbound webhooks (ADR 057): woken after a queueing commit, and swept every minute. */
  webhooksDeliver: 'webhooks.deliver',
  /** Daily: rows of ended sign-ins (refresh-token families, e-mail codes, session denials). */
  authSweep: 'auth.sweep',
  /** Alert e-mails (ADR 059): woken by a publish, and swept every minute; batches a minute's alerts. */
  alertsMail: 'alerts.mail',
  /** Alert posts to feeds' Discord channels (ADR 059): woken by a publish, swept every minute. */
  alertsDiscord: 'alerts.discord',
  /** The demo feed's sandbox signal (ADR 059), outside production only. */
  alertsDemoSignal: 'alerts.demo-signal',
} as const;

/** pg-boss runs maintenance (archive, purge) through this pool, so its limit is looser than the app's. */
const QUEUE_HOLD_LIMIT_MS = 30_000;

interface Log {
  warn(obj: object, msg: string): void;
}

/** pg-boss on a pool of ours (the same error listeners and time limits as the app's), closed with it. */
class Queue extends PgBoss {
  constructor(readonly pool: pg.Pool) {
    super({ db: { executeSql: (text, values) => pool.query(text, values) }, schema: 'pgboss' });
  }

  override async stop(options?: PgBoss.StopOptions): Promise<void> {
    try {
      await super.stop(options);
    } finally {
      if (!this.pool.ending) await this.pool.end();
    }
  }
}

/** The connection pool of a queue `startQueue` made (metrics read its use), else null. */
export function queuePool(boss: PgBoss): pg.Pool | null {
  return boss instanceof Queue ? boss.pool : null;
}

/**
 * pg-boss 10 calls `complete` and `fail` without awaiting them once a job handler returns
 * (manager.js, `watch`): if the database is gone at that moment the rejection is unhandled and Node
 * exits. Marking those promises handled (and reporting the failure as a queue 'error') keeps the
 * process up; a job left active is retried when it expires. Callers that await still get the
 * rejection. 11.x needs Node 22, so this stays until we move; see ADR 019.
 */
function survivePgBossCompletions(): void {
  const require = createRequire(import.meta.url);
  const { version } = require('pg-boss/package.json') as { version: string };
  if (!version.startsWith('10.'))
    throw new Error(`pg-boss ${version}: check ADR 019 before upgrading (completion handling)`);
  type Completion = (this: EventEmitter, ...args: unknown[]) => Promise<unknown>;
  const proto = (require('pg-boss/src/manager.js') as { prototype: Record<string, unknown> })
    .prototype;
  if (proto.survivesOutages) return;
  for (const name of ['complete', 'fail']) {
    const original = proto[name] as Completion;
    const patched = function (this: EventEmitter, ...args: unknown[]) {
      const done = original.apply(this, args);
      done.catch((err: unknown) => this.emit('error', err));
      return done;
    } satisfies Completion;
    // PgBoss exposes manager methods under their function names (`boss.fail`, `boss.complete`).
    Object.defineProperty(patched, 'name', { value: name });
    proto[name] = patched;
  }
  proto.survivesOutages = true;
}

/**
 * How long a job may stay active before pg-boss hands it to another worker (its default: 15 minutes).
 * A worker killed mid-job holds its jobs that long; converging one buyer's roles takes seconds, and
 * running it again is harmless, so a kill delays a role by two minutes, not fifteen.
 */
const EXPIRE_SECONDS: Partial<Record<string, number>> = { [queues.accessConverge]: 120 };

/** pg-boss in the application database: jobs commit and survive with the data they act on. */
export async function startQueue(
  connectionString: string,
  log: Log,
  limits: { connectTimeoutMs?: number; holdLimitMs?: number; max?: number } = {},
): Promise<PgBoss> {
  survivePgBossCompletions();
  const { pool } = createPool(connectionString, {
    max: 4,
    applicationName: 'pgboss',
    holdLimitMs: QUEUE_HOLD_LIMIT_MS,
    ...limits,
    onError: (err) => log.warn({ err: err.message }, 'job queue connection lost'),
  });
  const boss = new Queue(pool);
  // Workers, maintenance and the scheduler report failures here and carry on; the pool reconnects.
  boss.on('error', (err: Error) => log.warn({ err: err.message }, 'job queue error'));
  try {
    await boss.start();
    for (const name of Object.values(queues)) {
      const expire = EXPIRE_SECONDS[name];
      const options = {
        name,
        retryLimit: 5,
        retryDelay: 5,
        retryBackoff: true,
        ...(expire ? { expireInSeconds: expire } : {}),
      };
      await boss.createQueue(name, options);
      // An existing queue keeps its options through createQueue: a changed expiry reaches it here.
      if (expire) await boss.updateQueue(name, options);
    }
  } catch (err) {
    await boss.stop({ graceful: false }).catch(() => undefined);
    if (!pool.ending) await pool.end();
    throw err;
  }
  return boss;
}
