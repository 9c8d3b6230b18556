import type { AppDeps } from '../../deps.ts';
import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent, type EventType } from '../../events/types.ts';
import { queues } from '../../jobs/queue.ts';
import { anyBound, syncBuyer } from './sync.ts';

/**
 * The purchase events that can change what a buyer may use on TradingView. One list: an event that
 * ends or starts access (say, a vendor revoking a purchase) is added here and nowhere else.
 */
export const TRADINGVIEW_EVENT_TYPES = [
  'purchase.paid',
  'purchase.refunded',
  'purchase.disputed',
  'purchase.revoked',
  'subscription.cancelling',
  'subscription.resumed',
  'subscription.ended',
] as const satisfies readonly EventType[];

/** The TradingView module's subscriber to orders' events (ADR 028, 034). */
export function tradingviewSubscribers(deps: () => AppDeps): Subscriber[] {
  return [
    {
      // Inline, after `access.entitlements` (listed later): it reads the entitlements as this
      // transaction left them, so the library agrees with the payment or refund the moment it
      // commits. Database work only; the vendor's mail is queued with it. Purchases of products
      // that deliver no script cost one indexed look-up (`wants` cannot tell from the payload).
      name: 'tradingview.access',
      inline: true,
      types: TRADINGVIEW_EVENT_TYPES,
      handle: async (tx, event) => {
        if (!isPurchaseEvent(event)) return;
        if (event.type === 'purchase.refunded' && !event.data.full) return;
        if (!(await anyBound(tx, event.data.productIds))) return;
        const mails = await syncBuyer(deps(), tx, event.data.buyerId);
        if (mails.length)
          await deps().jobs.send(queues.tradingviewMail, { ids: mails.join(',') }, { tx });
      },
    },
  ];
}
