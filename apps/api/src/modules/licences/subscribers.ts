import type { AppDeps } from '../../deps.ts';
import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent, purchaseEventTypes } from '../../events/types.ts';
import { keepLicences } from './issue.ts';

/** The licences module's subscriber to orders' events (ADR 028, 032). */
export function licencesSubscribers(deps: () => AppDeps): Subscriber[] {
  return [
    {
      // Inline: the apps page read right after a payment or refund commits already agrees with it,
      // and validation answers change the moment the purchase does. Only its own tables.
      name: 'licences.issue',
      inline: true,
      types: purchaseEventTypes,
      handle: async (tx, event) => {
        if (isPurchaseEvent(event)) await keepLicences(deps(), tx, event);
      },
    },
  ];
}
