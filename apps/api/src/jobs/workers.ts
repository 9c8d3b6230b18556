import type PgBoss from 'pg-boss';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { AppDeps } from '../deps.ts';
import { jobHandlers } from './handlers.ts';
import { retryPayouts } from '../modules/affiliates/index.ts';
import { sweepEndedSessions } from '../modules/auth/index.ts';
import { runSavedSearchAlerts } from '../modules/membership/index.ts';
import {
  endLapsedSubscriptions,
  expireCheckouts,
  processAutoRefunds,
  retryVendorRefunds,
} from '../modules/orders/index.ts';
import type { JobData, JobHandler } from './port.ts';
import { queues } from './queue.ts';
import { runTracedJob } from '../platform/tracing.ts';

export interface WorkerDeps {
  mailer: Mailer;
  /** Cancels unpaid checkouts past their expiry; returns how many. */
  expireCheckouts: () => Promise<number>;
  endLapsedSubscriptions: () => Promise<number>;
  /** Provider work that must not be lost: owed refunds, and the payment sandbox's webhook outbox. */
  retryPayments: () => Promise<{ refunds: number; events: number; payouts?: number }>;
  /** Matches new products against members' saved searches and mails them. */
  savedSearchAlerts: () => Promise<{ matched: number; mailed: number }>;
  /** Deletes rows of ended sign-ins; returns how many of each. */
  sweepEndedSessions: () => Promise<Record<string, number>>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** When every bound Discord server is compared with the entitlements (ADR 031). */
  reconcileCron?: string;
  /** When overdue TradingView revocations are looked for (ADR 034). */
  tradingviewReminderCron?: string;
  /** When the demo alert feed posts a sandbox signal; none: never. */
  alertsDemoCron?: string;
  /** Module jobs by queue name (`jobHandlers`). */
  handlers: Record<string, JobHandler>;
}

/** A cron line for every `n` minutes (a divisor of 60). */
const everyMinutes = (n: number) => (n === 60 ? '0 * * * *' : `*/${n} * * * *`);

/** What the jobs run, from the app's dependencies (one wiring for `npm start`, the worker and tests). */
export function workerDeps(app: AppDeps, log: WorkerDeps['log']): WorkerDeps {
  return {
    mailer: app.mailer,
    expireCheckouts: () => expireCheckouts(app.database.db),
    sweepEndedSessions: () => sweepEndedSessions(app.database.db),
    endLapsedSubscriptions: () => endLapsedSubscriptions(app),
    retryPayments: async () => ({
      refunds: (await processAutoRefunds(app)) + (await retryVendorRefunds(app)),
      events: (await app.stripeSandbox?.sendDue()) ?? 0,
      payouts: await retryPayouts(app),
    }),
    savedSearchAlerts: () => runSavedSearchAlerts(app),
    reconcileCron:
      app.config.ACCESS_RECONCILE_MINUTES === 60
        ? '0 * * * *'
        : `*/${app.config.ACCESS_RECONCILE_MINUTES} * * * *`,
    tradingviewReminderCron: everyMinutes(app.config.TRADINGVIEW_REMINDER_MINUTES),
    ...(app.config.APP_ENV !== 'production' && app.config.ALERTS_DEMO_SIGNAL_MINUTES > 0
      ? { alertsDemoCron: `*/${app.config.ALERTS_DEMO_SIGNAL_MINUTES} * * * *` }
      : {}),
    log,
    handlers: jobHandlers(app),
  };
}

/** Starts every job handler on this process. */
export async function startWorkers(boss: PgBoss, deps: WorkerDeps): Promise<void> {
  await boss.work<{ id: string }>(
    queues.mailDeliver,
    { pollingIntervalSeconds: 0.5, batchSize: 5 },
    async (jobs) => {
      for (const job of jobs) await deps.mailer.deliver(job.data.id);
    },
  );
  await boss.work(queues.mailSweep, { pollingIntervalSeconds: 5 }, async () => {
    const ids = await deps.mailer.stale(60_000);
    for (const id of ids) await deps.mailer.deliver(id);
  });
  await boss.schedule(queues.mailSweep, '* * * * *');
  await boss.work(queues.checkoutExpiry, { pollingIntervalSeconds: 30 }, async () => {
    const n = await deps.expireCheckouts();
    if (n) deps.log.info({ n }, 'expired unpaid checkouts');
    const lapsed = await deps.endLapsedSubscriptions();
    if (lapsed) deps.log.info({ n: lapsed }, 'ended lapsed subscriptions');
  });
  await boss.schedule(queues.checkoutExpiry, '*/5 * * * *');
  await boss.work(queues.paymentsRetry, { pollingIntervalSeconds: 5 }, async () => {
    const done = await deps.retryPayments();
    if (done.refunds || done.events || done.payouts) deps.log.info(done, 'retried payment work');
  });
  await boss.schedule(queues.paymentsRetry, '* * * * *');
  // Events whose wake-up was lost (a crash right after the commit) are delivered by this sweep.
  await boss.schedule(queues.eventsDeliver, '* * * * *');
  // Webhook retries come due on their own clock: the sweep sends them (and any lost wake-up's).
  await boss.schedule(queues.webhooksDeliver, '* * * * *');
  // Alert e-mails wait for their minute's batch: the sweep sends each batch once it is due.
  await boss.schedule(queues.alertsMail, '* * * * *');
  // Discord posts waiting out a rate limit or an outage are retried by this sweep.
  await boss.schedule(queues.alertsDiscord, '* * * * *');
  // The demo feed's sandbox signal (ADR 059): never in production, off at 0.
  if (deps.alertsDemoCron) await boss.schedule(queues.alertsDemoSignal, deps.alertsDemoCron);
  else await boss.unschedule(queues.alertsDemoSignal);
  await boss.work(queues.savedSearchAlerts, { pollingIntervalSeconds: 30 }, async () => {
    const done = await deps.savedSearchAlerts();
    if (done.matched || done.mailed) deps.log.info(done, 'saved-search alerts');
  });
  await boss.schedule(queues.savedSearchAlerts, '*/5 * * * *');
  await boss.work(queues.authSweep, { pollingIntervalSeconds: 60 }, async () => {
    const done = await deps.sweepEndedSessions();
    if (Object.values(done).some(Boolean)) deps.log.info(done, 'swept ended sign-ins');
  });
  await boss.schedule(queues.authSweep, '17 3 * * *');
  await boss.schedule(queues.accessReconcile, deps.reconcileCron ?? '0 * * * *');
  await boss.schedule(queues.tradingviewReminders, deps.tradingviewReminderCron ?? '*/15 * * * *');
  for (const [name, handler] of Object.entries(deps.handlers)) {
    // A worker fetches once per polling interval, so batches keep a burst from queueing up; a
    // failure fails (and retries) only its own job, not the batch.
    await boss.work<JobData>(name, { pollingIntervalSeconds: 0.5, batchSize: 20 }, async (jobs) => {
      // A batch runs side by side: one slow provider call does not hold up the other nineteen.
      await Promise.all(
        jobs.map(async (job) => {
          try {
            await runTracedJob(name, job.data, handler);
          } catch (err) {
            deps.log.error(
              { err: err instanceof Error ? err.message : String(err), job: name },
              'job failed',
            );
            await boss.fail(name, job.id, {
              message: err instanceof Error ? err.message : 'failed',
            });
          }
        }),
      );
    });
  }
}
