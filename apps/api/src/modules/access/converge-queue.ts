import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';

export type ConvergeCause =
  'purchase' | 'linked' | 'unlinked' | 'member_event' | 'reconnect' | 'retry';

/**
 * Asks a worker to bring a user's Discord roles to what their entitlements say. Inside a transaction,
 * pass it as `tx`: the job is queued in it (see `SendOptions`).
 */
export async function queueConverge(
  deps: AppDeps,
  userId: string,
  options: { formerDiscordUserId?: string | null; cause: ConvergeCause; tx?: Tx },
): Promise<void> {
  await deps.jobs.send(
    queues.accessConverge,
    {
      userId,
      cause: options.cause,
      ...(options.formerDiscordUserId ? { formerDiscordUserId: options.formerDiscordUserId } : {}),
    },
    options.tx ? { tx: options.tx } : {},
  );
}
