import type { Subscriber } from '../../events/bus.ts';
import { keepEntitlements } from './entitlements.ts';

/** The access module's subscribers to orders' events (ADR 028). */
export function accessSubscribers(): Subscriber[] {
  return [
    {
      name: 'access.entitlements',
      inline: true,
      types: [
        'purchase.paid',
        'purchase.refunded',
        'purchase.disputed',
        'subscription.cancelling',
        'subscription.resumed',
        'subscription.ended',
      ],
      handle: keepEntitlements,
    },
  ];
}
