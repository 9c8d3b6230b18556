import type { AppDeps } from '../deps.ts';
import type { JobHandler } from '../jobs/port.ts';
import { queues } from '../jobs/queue.ts';

/**
 * Delivery runs as a job: woken by publishers after their commit, and by the minute sweep. The bus
 * keeps one run per process (`deliverInRun`); other processes' runs proceed side by side
 * (deliveries are locked one by one).
 */
export function eventJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.eventsDeliver]: () => deps.events.deliverInRun(deps.database.db),
  };
}
