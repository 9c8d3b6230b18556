import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent } from '../../events/types.ts';
import { hideUndoneReviews } from './hide.ts';

/** The reviews module's subscriber to orders' events (ADR 028, 036). */
export function reviewsSubscribers(): Subscriber[] {
  return [
    {
      // Inline, after catalog.ownership and access.entitlements: the refund that commits has
      // already taken the review out of the product's rating. Only its own tables and the
      // catalogue's rating copy, through the catalogue's service.
      name: 'reviews.purchase-undone',
      inline: true,
      types: ['purchase.refunded', 'purchase.disputed', 'purchase.revoked'],
      handle: async (tx, event) => {
        if (isPurchaseEvent(event)) await hideUndoneReviews(tx, event);
      },
    },
  ];
}
