// The vendor's webhooks (ADR 057): each domain event that concerns a storefront becomes the
// webhook events its endpoints asked for, queued on the engine in the delivering transaction.
// Data comes from the event and from the owning module's entry (orders' sale view), never from
// another module's tables.
import { createHash } from 'node:crypto';
import { WEBHOOK_PAYLOAD_VERSION, type WebhookEventType } from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Subscriber } from '../../events/bus.ts';
import type { DomainEvent, EventType } from '../../events/types.ts';
import * as store from '../../webhooks/store.ts';
import { vendorSaleSummary } from '../orders/index.ts';
import { VENDOR_OWNER } from './endpoints.ts';

/** Domain event → the webhook types it may become (`purchase.paid` is a sale, a subscription, or both). */
const becomes: Partial<Record<EventType, readonly WebhookEventType[]>> = {
  'purchase.paid': ['sale.completed', 'subscription.started'],
  'purchase.refunded': ['sale.refunded'],
  'purchase.disputed': ['sale.disputed'],
  'subscription.renewed': ['subscription.renewed'],
  'subscription.ended': ['subscription.ended'],
  'licence.issued': ['licence.issued'],
  'licence.activated': ['licence.activated'],
  'licence.revoked': ['licence.revoked'],
  'access.granted': ['access.granted'],
  'access.failed': ['access.failed'],
  'access.ended': ['access.ended'],
  'review.posted': ['review.posted'],
};

/**
 * The webhook event's id: the same for every endpoint and every run of this subscriber, so a
 * redelivered domain event queues nothing twice (the outbox is unique per endpoint and id).
 */
const webhookEventId = (eventId: string, type: string) =>
  `evt_${createHash('sha256').update(`${eventId}:${type}`).digest('base64url').slice(0, 22)}`;

type Payload = { objectKey: string; data: unknown } | null;

async function payloadOf(
  tx: Tx,
  event: DomainEvent,
  type: WebhookEventType,
  sale: () => Promise<Awaited<ReturnType<typeof vendorSaleSummary>>>,
): Promise<Payload> {
  switch (event.type) {
    case 'purchase.paid': {
      const s = await sale();
      if (!s) return null;
      if (type === 'sale.completed' && event.data.trial) return null;
      if (type === 'subscription.started' && !s.subscription) return null;
      return { objectKey: s.id, data: { sale: s } };
    }
    case 'purchase.refunded': {
      const s = await sale();
      return (
        s && {
          objectKey: s.id,
          data: { sale: s, refund: { amount: event.data.amount, full: event.data.full } },
        }
      );
    }
    case 'purchase.disputed':
    case 'subscription.ended': {
      const s = await sale();
      return s && { objectKey: s.id, data: { sale: s } };
    }
    case 'subscription.renewed': {
      const s = await sale();
      return s && { objectKey: s.id, data: { sale: s, periodEnd: event.data.periodEnd } };
    }
    case 'licence.issued':
    case 'licence.activated':
    case 'licence.revoked': {
      const d = event.data;
      return {
        objectKey: d.licenceId,
        data: {
          licence: { id: d.licenceId, productId: d.productId, saleId: d.purchaseId },
          ...('activationId' in d
            ? { activation: { id: d.activationId, deviceName: d.deviceName } }
            : {}),
          ...('reason' in d ? { reason: d.reason } : {}),
        },
      };
    }
    case 'access.granted':
    case 'access.failed':
    case 'access.ended': {
      const d = event.data;
      return {
        objectKey: d.entitlementId,
        data: {
          access: {
            id: d.entitlementId,
            kind: d.kind,
            productId: d.productId,
            saleId: d.purchaseId,
            detail: d.detail,
          },
          ...('reason' in d ? { reason: d.reason } : {}),
        },
      };
    }
    case 'review.posted': {
      const d = event.data;
      return {
        objectKey: d.reviewId,
        data: {
          review: {
            id: d.reviewId,
            productId: d.productId,
            rating: d.rating,
            text: d.text,
            edited: d.edited,
          },
        },
      };
    }
    default:
      return null;
  }
}

async function fanOut(deps: AppDeps, tx: Tx, event: DomainEvent): Promise<void> {
  const owner = { kind: VENDOR_OWNER, id: event.data.vendorId };
  let loaded: Promise<Awaited<ReturnType<typeof vendorSaleSummary>>> | null = null;
  const sale = () =>
    (loaded ??= vendorSaleSummary(
      tx,
      event.data.vendorId,
      (event.data as { purchaseId: string }).purchaseId,
    ));
  for (const type of becomes[event.type] ?? []) {
    const endpoints = await store.subscribedEndpoints(tx, owner, type);
    if (!endpoints.length) continue;
    const payload = await payloadOf(tx, event, type, sale);
    if (!payload) continue;
    await deps.webhooks.enqueue(tx, endpoints, {
      eventId: webhookEventId(event.id, type),
      type,
      version: WEBHOOK_PAYLOAD_VERSION,
      objectKey: payload.objectKey,
      createdAt: event.occurredAt,
      data: payload.data,
    });
  }
}

export function developersSubscribers(deps: () => AppDeps): Subscriber[] {
  return [
    {
      // Delivered, not inline: a storefront's webhooks never slow down or fail a payment.
      name: 'developers.webhooks',
      types: Object.keys(becomes) as EventType[],
      handle: (tx, event) => fanOut(deps(), tx, event),
    },
  ];
}
