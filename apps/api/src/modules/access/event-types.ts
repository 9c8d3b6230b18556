import type { EventType } from '../../events/types.ts';

/** The purchase events that start or end an entitlement (a renewal changes none). */
export const ENTITLEMENT_EVENT_TYPES = [
  'purchase.paid',
  'purchase.refunded',
  'purchase.disputed',
  'purchase.revoked',
  'subscription.cancelling',
  'subscription.resumed',
  'subscription.ended',
] as const satisfies readonly EventType[];

/** Those that change a Discord role entitlement (a cancelling subscription keeps its roles). */
export const DISCORD_EVENT_TYPES = [
  'purchase.paid',
  'purchase.refunded',
  'purchase.disputed',
  'purchase.revoked',
  'subscription.resumed',
  'subscription.ended',
] as const satisfies readonly EventType[];
