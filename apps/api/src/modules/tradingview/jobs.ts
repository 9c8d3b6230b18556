import type { AppDeps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/port.ts';
import { queues } from '../../jobs/queue.ts';
import { remindOverdue } from './reminders.ts';
import { syncNow } from './sync.ts';

export function tradingviewJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.tradingviewSync]: (data) => syncNow(deps, data.userId!),
    // Mail queued in a payment's transaction: sent once it committed (the mail sweep catches a
    // lost job).
    [queues.tradingviewMail]: async (data) => {
      for (const id of (data.ids ?? '').split(',').filter(Boolean)) await deps.mailer.deliver(id);
    },
    [queues.tradingviewReminders]: async () => {
      await remindOverdue(deps);
    },
  };
}
