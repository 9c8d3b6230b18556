import type { AppDeps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/port.ts';
import { queues } from '../../jobs/queue.ts';
import type { ConvergeCause } from './converge-queue.ts';
import { convergeUser } from './converge.ts';
import { reconcileAll } from './reconcile.ts';

export function accessJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.accessConverge]: (data) =>
      convergeUser(deps, data.userId!, {
        cause: (data.cause ?? 'retry') as ConvergeCause,
        formerDiscordUserId: data.formerDiscordUserId ?? null,
        change:
          data.changeEvent && data.changePurchaseId && data.changedAt
            ? { event: data.changeEvent, purchaseId: data.changePurchaseId, at: data.changedAt }
            : null,
      }),
    [queues.accessReconcile]: async () => {
      await reconcileAll(deps);
    },
  };
}
