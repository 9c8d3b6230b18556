import type { AppDeps } from '../../deps.ts';
import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent } from '../../events/types.ts';
import { queueConverge } from './converge-queue.ts';
import { DISCORD_EVENT_TYPES, ENTITLEMENT_EVENT_TYPES } from './event-types.ts';
import { keepEntitlements } from './entitlements.ts';

/** The access module's subscribers to orders' events (ADR 028). */
export function accessSubscribers(deps: () => AppDeps): Subscriber[] {
  return [
    {
      name: 'access.entitlements',
      inline: true,
      types: ENTITLEMENT_EVENT_TYPES,
      handle: keepEntitlements,
    },
    {
      // Delivery calls Discord, so it runs after the commit, never in the payment's transaction.
      name: 'access.discord',
      types: DISCORD_EVENT_TYPES,
      wants: (event) => isPurchaseEvent(event) && event.data.deliveries.includes('discord_role'),
      // Level-triggered: the job reads the entitlements as they are when it runs. Queued in the
      // delivery's transaction: on the one-connection embedded database a send on the queue's own
      // pool would wait for this transaction, which waits for the send.
      handle: (tx, event) =>
        queueConverge(deps(), event.data.buyerId, {
          cause: 'purchase',
          tx,
          change: isPurchaseEvent(event)
            ? { event: event.type, purchaseId: event.data.purchaseId, at: event.occurredAt }
            : null,
        }),
    },
  ];
}
