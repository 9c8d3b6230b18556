import type { AppDeps } from '../../deps.ts';
import type { Subscriber } from '../../events/bus.ts';
import { isPurchaseEvent } from '../../events/types.ts';
import { queues } from '../../jobs/queue.ts';
import { ENTITLEMENT_EVENT_TYPES } from '../access/index.ts';
import { anyBound, syncBuyer } from './sync.ts';

/**
 * The purchase events that can change what a buyer may use on TradingView: those that change the
 * entitlements it reads. One list: an event that ends or starts access is added there only.
 */
export const TRADINGVIEW_EVENT_TYPES = ENTITLEMENT_EVENT_TYPES;

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
