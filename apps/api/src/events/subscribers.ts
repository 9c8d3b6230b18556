import type { AppDeps } from '../deps.ts';
import { accessSubscribers } from '../modules/access/subscribers.ts';
import { catalogSubscribers } from '../modules/catalog/subscribers.ts';
import { licencesSubscribers } from '../modules/licences/subscribers.ts';
import { tradingviewSubscribers } from '../modules/tradingview/subscribers.ts';
import { reviewsSubscribers } from '../modules/reviews/subscribers.ts';
import { developersSubscribers } from '../modules/developers/subscribers.ts';
import type { Subscriber } from './bus.ts';

/**
 * Every module's event subscribers (ADR 028). `deps` is read when an event is handled, never while
 * the process is being wired, so subscribers may use any of its services.
 */
export function subscribers(deps: () => AppDeps): Subscriber[] {
  // tradingview after access: it reads the entitlements access.entitlements just wrote.
  // Reviews last: it asks the catalogue and access, which the same transaction has just updated.
  return [
    ...catalogSubscribers(),
    ...accessSubscribers(deps),
    ...licencesSubscribers(deps),
    ...tradingviewSubscribers(deps),
    ...reviewsSubscribers(),
    ...developersSubscribers(deps),
  ];
}
