import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';

export type ConvergeCause =
  'purchase' | 'linked' | 'unlinked' | 'member_event' | 'reconnect' | 'retry';

/**
 * The event that changed an entitlement (a purchase paid, refunded, disputed, revoked; a
 * subscription resumed or ended), carried to the converge that acts on it, through retries, so the
 * convergence lag is measured from it (`tradeshelf_entitlement_convergence_lag_seconds`).
 */
export interface EntitlementChange {
  event: string;
  purchaseId: string;
  /** When the event happened (ISO 8601). */
  at: string;
}

/** Why a user's roles are converged, and who they were on Discord before an unlink. */
export interface ConvergeOptions {
  formerDiscordUserId?: string | null;
  cause: ConvergeCause;
  /** The event this converge acts on, when one changed an entitlement: the lag is timed from it. */
  change?: EntitlementChange | null;
}

/**
 * Asks a worker to bring a user's Discord roles to what their entitlements say. Inside a transaction,
 * pass it as `tx`: the job is queued in it (see `SendOptions`).
 */
export async function queueConverge(
  deps: AppDeps,
  userId: string,
  options: ConvergeOptions & { tx?: Tx },
): Promise<void> {
  const change = options.change;
  await deps.jobs.send(
    queues.accessConverge,
    {
      userId,
      cause: options.cause,
      ...(options.formerDiscordUserId ? { formerDiscordUserId: options.formerDiscordUserId } : {}),
      ...(change
        ? { changeEvent: change.event, changePurchaseId: change.purchaseId, changedAt: change.at }
        : {}),
    },
    options.tx ? { tx: options.tx } : {},
  );
}
