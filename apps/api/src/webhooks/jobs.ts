import type { AppDeps } from '../deps.ts';
import type { JobHandler } from '../jobs/port.ts';
import { queues } from '../jobs/queue.ts';

/** Webhook delivery (ADR 057): woken after a queueing commit, and swept every minute. */
export function webhookJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.webhooksDeliver]: () => deps.webhooks.deliverInRun(deps.database.db),
  };
}
