import type PgBoss from 'pg-boss';
import type { Mailer } from '../integrations/mail/mailer.ts';
import { queues } from './queue.ts';

export interface WorkerDeps {
  mailer: Mailer;
  /** Cancels unpaid checkouts past their expiry; returns how many. */
  expireCheckouts: () => Promise<number>;
  endLapsedSubscriptions: () => Promise<number>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
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
}
