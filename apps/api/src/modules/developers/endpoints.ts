// Use cases: a vendor's webhook endpoints and their delivery log (ADR 057), on the webhook engine's
// store for the owner `vendor:<id>`.
import {
  developersMessages as m,
  WEBHOOK_ENDPOINTS_PER_VENDOR,
  WEBHOOK_PAYLOAD_VERSION,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { newId } from '../../lib.ts';
import { cursorField, cursorKind, pageOf } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { checkedUserUrl } from '../../platform/outbound-url.ts';
import * as store from '../../webhooks/store.ts';

export const VENDOR_OWNER = 'vendor';
const ownerOf = (vendorId: string): store.Owner => ({ kind: VENDOR_OWNER, id: vendorId });
const deliveriesCursor = cursorKind('webhook-deliveries', [
  cursorField.count(Number.MAX_SAFE_INTEGER),
]);

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function endpointView(r: store.EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    eventTypes: r.event_types as WebhookEventType[],
    enabled: r.enabled,
    disabledReason: r.disabled_reason === 'failing' ? 'failing' : null,
    consecutiveFailures: r.consecutive_failures,
    createdAt: iso(r.created_at)!,
  };
}

function deliveryView(r: store.MessageRow): WebhookDelivery {
  return {
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    responseStatus: r.last_status,
    lastError: r.last_error,
    createdAt: iso(r.created_at)!,
    lastAttemptAt: iso(r.last_attempt_at),
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    deliveredAt: iso(r.delivered_at),
  };
}

/** The URL, checked as the engine will check it at delivery: https, public addresses only. */
const checkedUrl = (deps: AppDeps, url: string) =>
  checkedUserUrl(
    url,
    deps.webhooks.policy,
    { url: m.url, https: m.urlHttps, refused: m.urlRefused, unresolved: m.urlUnresolved },
    'url',
  );

async function ownEndpoint(deps: AppDeps, vendorId: string, id: string) {
  const found = await store.endpointOf(deps.database.db, ownerOf(vendorId), id);
  if (!found) throw new AppError('not_found', m.endpointNotFound);
  return found;
}

export async function listEndpoints(deps: AppDeps, vendorId: string) {
  return (await store.listEndpoints(deps.database.db, ownerOf(vendorId))).map(endpointView);
}

export async function createEndpoint(
  deps: AppDeps,
  vendorId: string,
  body: { url: string; description: string; eventTypes: WebhookEventType[]; enabled: boolean },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkedUrl(deps, body.url);
  const { secret, sealed } = deps.webhooks.newSecret();
  const row = await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${vendorId}`}))`);
    if ((await store.countEndpoints(tx, ownerOf(vendorId))) >= WEBHOOK_ENDPOINTS_PER_VENDOR)
      throw new AppError('business_rule', m.tooManyEndpoints);
    return store.insertEndpoint(
      tx,
      ownerOf(vendorId),
      { ...body, url, eventTypes: [...new Set(body.eventTypes)] },
      sealed,
    );
  });
  return { endpoint: endpointView(row), secret };
}

export async function updateEndpoint(
  deps: AppDeps,
  vendorId: string,
  id: string,
  body: { url?: string; description?: string; eventTypes?: WebhookEventType[]; enabled?: boolean },
): Promise<WebhookEndpoint> {
  const url = body.url === undefined ? undefined : await checkedUrl(deps, body.url);
  const row = await store.updateEndpoint(deps.database.db, ownerOf(vendorId), id, {
    ...body,
    ...(url !== undefined ? { url } : {}),
    ...(body.eventTypes ? { eventTypes: [...new Set(body.eventTypes)] } : {}),
  });
  if (!row) throw new AppError('not_found', m.endpointNotFound);
  // Turned back on: what waited while it was off goes out now.
  if (body.enabled) await deps.jobs.send(queues.webhooksDeliver, {});
  return endpointView(row);
}

export async function deleteEndpoint(deps: AppDeps, vendorId: string, id: string) {
  if (!(await store.deleteEndpoint(deps.database.db, ownerOf(vendorId), id)))
    throw new AppError('not_found', m.endpointNotFound);
  return { message: m.deleted };
}

export async function endpointSecret(deps: AppDeps, vendorId: string, id: string) {
  const found = await ownEndpoint(deps, vendorId, id);
  return { secret: deps.webhooks.openSecret(found.secret_sealed) };
}

export async function deliveries(
  deps: AppDeps,
  vendorId: string,
  id: string,
  query: { limit: number; cursor?: string | undefined },
) {
  await ownEndpoint(deps, vendorId, id);
  const before = query.cursor ? deps.cursors.decode(deliveriesCursor, query.cursor)[0] : null;
  const rows = await store.messagesOf(deps.database.db, id, query.limit + 1, before);
  const { page, nextCursor } = pageOf(rows, query.limit, (last) =>
    deps.cursors.encode(deliveriesCursor, [last.seq]),
  );
  return { deliveries: page.map(deliveryView), nextCursor };
}

export async function resend(deps: AppDeps, vendorId: string, id: string, deliveryId: string) {
  await ownEndpoint(deps, vendorId, id);
  if (!(await deps.webhooks.resend(deps.database.db, id, deliveryId)))
    throw new AppError('not_found', m.deliveryNotFound);
  return { delivery: deliveryView((await store.messageOf(deps.database.db, id, deliveryId))!) };
}

/** A `webhook.test` event to this endpoint only, whatever events it takes. */
export async function sendTest(deps: AppDeps, vendorId: string, id: string) {
  await ownEndpoint(deps, vendorId, id);
  const eventId = newId('evt');
  const [messageId] = await deps.database.db.transaction((tx) =>
    deps.webhooks.enqueue(tx, [id], {
      eventId,
      type: WEBHOOK_TEST_EVENT,
      version: WEBHOOK_PAYLOAD_VERSION,
      objectKey: eventId,
      createdAt: new Date().toISOString(),
      data: { message: 'A test event from Tradeshelf.' },
    }),
  );
  return { delivery: deliveryView((await store.messageOf(deps.database.db, id, messageId!))!) };
}
