import type { Mailer } from '../src/integrations/mail/mailer.ts';
import type { WorkerDeps } from '../src/jobs/workers.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * What the job workers need for a test of the queue itself: its mailer and handlers, and the
 * periodic sweeps finding nothing to do, so only the test's own jobs run.
 */
export const idleWorkerDeps = (mailer: Mailer, handlers: WorkerDeps['handlers']): WorkerDeps => ({
  mailer,
  expireCheckouts: async () => 0,
  endLapsedSubscriptions: async () => 0,
  retryPayments: async () => ({ refunds: 0, events: 0 }),
  savedSearchAlerts: async () => ({ matched: 0, mailed: 0 }),
  sweepEndedSessions: async () => ({}),
  log: quiet,
  handlers,
});
