import type { Money } from '@tradeshelf/contract';

/**
 * What happens to a purchase, as orders publishes it (ADR 028). Payloads carry ids and what changed;
 * a subscriber that needs more reads the current state through the owning module's service, so a
 * late or repeated delivery acts on today's truth, not on a stale copy.
 */
export interface EventPayloads {
  /**
   * Money arrived (or a trial started): access starts. `products` are the item's products with
   * their catalogue kinds at the moment of payment, so subscribers need not read them again.
   */
  'purchase.paid': PurchaseRef & { trial: boolean; products: Array<{ id: string; kind: string }> };
  /** Part or all of a payment went back; `full` ends access. */
  'purchase.refunded': PurchaseRef & { amount: Money; full: boolean };
  /** The buyer disputed the payment: the money is held back at once, so access ends at once. */
  'purchase.disputed': PurchaseRef;
  /** The vendor ended the buyer's access, for `reason` (no money moved). */
  'purchase.revoked': PurchaseRef & { reason: string };
  /** A subscription's next period was paid. */
  'subscription.renewed': PurchaseRef & { periodEnd: string | null };
  /** The buyer cancelled: access lasts until the period ends. */
  'subscription.cancelling': PurchaseRef & { accessUntil: string | null };
  /** A cancelling subscription was resumed: access runs on with the renewals. */
  'subscription.resumed': PurchaseRef;
  /** No more access from this subscription. */
  'subscription.ended': PurchaseRef;
  /**
   * Published by licences (ADR 032, 057), stream: the licence. Issued with a purchase, activated
   * on a device (a new activation only), revoked (refund, dispute, the vendor).
   */
  'licence.issued': LicenceRef;
  'licence.activated': LicenceRef & { activationId: string; deviceName: string };
  'licence.revoked': LicenceRef & { reason: string };
  /**
   * Published by access when Discord delivery changes (ADR 031, 057), stream: the entitlement. A
   * role granted, a grant that failed (it is retried), a role removed.
   */
  'access.granted': AccessRef;
  'access.failed': AccessRef & { reason: string };
  'access.ended': AccessRef;
  /** Published by reviews (ADR 036, 057), stream: the review. Written, or edited. */
  'review.posted': {
    reviewId: string;
    productId: string;
    vendorId: string;
    buyerId: string;
    rating: number;
    text: string;
    edited: boolean;
  };
}

export interface LicenceRef {
  licenceId: string;
  /** The sale it came with (null for a licence issued without one). */
  purchaseId: string | null;
  productId: string;
  vendorId: string;
  buyerId: string;
}

export interface AccessRef {
  entitlementId: string;
  purchaseId: string;
  productId: string;
  vendorId: string;
  buyerId: string;
  kind: 'discord_role';
  detail: string;
}

export interface PurchaseRef {
  purchaseId: string;
  buyerId: string;
  vendorId: string;
  /** What was bought: one product, or a bundle. */
  item: { type: 'product' | 'bundle'; id: string };
  /** The products the purchase gives access to (a bundle's, or the one product). */
  productIds: string[];
  /**
   * What it delivers beyond plain access (a Discord role, a course, a licence): lets a subscriber
   * that only acts on some kinds skip the rest without a delivery (`Subscriber.wants`).
   */
  deliveries: DeliveryKind[];
}

export type DeliveryKind = 'course_enrolment' | 'licence' | 'discord_role';

export type EventType = keyof EventPayloads;
/** Orders' events about a purchase, the `PurchaseEventType`s. */
export const purchaseEventTypes = [
  'purchase.paid',
  'purchase.refunded',
  'purchase.disputed',
  'purchase.revoked',
  'subscription.renewed',
  'subscription.cancelling',
  'subscription.resumed',
  'subscription.ended',
] as const satisfies readonly EventType[];
export const eventTypes = [
  ...purchaseEventTypes,
  'licence.issued',
  'licence.activated',
  'licence.revoked',
  'access.granted',
  'access.failed',
  'access.ended',
  'review.posted',
] as const satisfies readonly EventType[];

/** The events orders publishes about a purchase (their payloads carry a `PurchaseRef`). */
export type PurchaseEventType = Exclude<
  EventType,
  `licence.${string}` | `access.${string}` | 'review.posted'
>;

/** One published event as a subscriber receives it. */
export type DomainEvent = AnyEvent<EventType>;
/** One of orders' purchase events. */
export type PurchaseEvent = AnyEvent<PurchaseEventType>;

type AnyEvent<K extends EventType> = {
  [T in K]: {
    id: string;
    type: T;
    /** Events of one stream (a purchase) reach each subscriber in `version` order. */
    stream: string;
    version: number;
    data: EventPayloads[T];
    occurredAt: string;
  };
}[K];

/** Whether `event` is one of orders' purchase events (subscribers of those only narrow with it). */
export function isPurchaseEvent(event: DomainEvent): event is PurchaseEvent;
export function isPurchaseEvent(
  event: Pick<DomainEvent, 'type' | 'data'>,
): event is Pick<PurchaseEvent, 'type' | 'data'>;
export function isPurchaseEvent(event: Pick<DomainEvent, 'type' | 'data'>): boolean {
  return 'deliveries' in event.data && 'productIds' in event.data;
}
