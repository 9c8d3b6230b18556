import type { AppDeps } from '../deps.ts';
import type { JobHandler } from '../jobs/port.ts';
import { queues } from '../jobs/queue.ts';

/** This process's delivery run, and whether more was published while it ran. */
const runs = new WeakMap<AppDeps, { running: Promise<void>; again: boolean }>();

/**
 * Delivery runs as a job: woken by publishers after their commit, and by the minute sweep. Every
 * payment wakes it, so wake-ups arriving while this process already delivers only ask that run to
 * look once more: a burst costs one scan per round, not one per payment. Other processes' runs
 * still proceed side by side (deliveries are locked one by one).
 */
export function eventJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.eventsDeliver]: () => {
      const current = runs.get(deps);
      if (current) {
        current.again = true;
        return current.running;
      }
      const run = { again: false, running: Promise.resolve() };
      run.running = (async () => {
        try {
          do {
            run.again = false;
            await deps.events.deliverDue(deps.database.db);
          } while (run.again);
        } finally {
          runs.delete(deps);
        }
      })();
      runs.set(deps, run);
      return run.running;
    },
  };
}
