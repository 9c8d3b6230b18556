import type { AppDeps } from '../deps.ts';
import type { JobHandler } from '../jobs/port.ts';
import { queues } from '../jobs/queue.ts';

/** Delivery runs as a job: woken by publishers after their commit, and by the minute sweep. */
export function eventJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.eventsDeliver]: async () => {
      await deps.events.deliverDue(deps.database.db);
    },
  };
}
