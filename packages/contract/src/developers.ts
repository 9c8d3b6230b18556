import { z } from 'zod';
import { idSchema, isoDateTime, messageResponse, pageQuery, textField } from './common.ts';
import {
  API_KEY_NAME_MAX,
  apiKeyScopes,
  developersMessages as m,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  webhookDeliveryStatuses,
  webhookEventTypes,
} from './constants/developers.ts';
import { totpCodeSchema } from './auth.ts';
import { hasUnreadableCharacters } from './rules/text.ts';
import { defineRoute } from './route.ts';

/** Issue 33, ADR 057: a vendor's API keys and webhook endpoints (docs/product.md#api-keys-and-webhooks). */

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The key's start, enough to recognise it (`tsk_live_3f9a…`); the secret part is never shown again. */
    preview: z.string(),
    scopes: z.array(z.enum(apiKeyScopes)),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createApiKeyBody = z.object({
  name: textField({ required: m.keyName, max: API_KEY_NAME_MAX, tooLong: m.keyName }),
  scopes: z
    .array(z.enum(apiKeyScopes), { error: m.keyScopes })
    .min(1, m.keyScopes)
    .max(apiKeyScopes.length, m.keyScopes),
  /** Creating a key needs two-factor on and a current code (ADR 054, 057). */
  twoFactorCode: totpCodeSchema.optional(),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

const eventTypesField = z
  .array(z.enum(webhookEventTypes), { error: m.eventTypes })
  .min(1, m.eventTypes)
  .max(webhookEventTypes.length, m.eventTypes);

const urlField = z
  .string({ error: m.url })
  .trim()
  .min(1, m.url)
  .max(WEBHOOK_URL_MAX, m.url)
  .refine((v) => URL.canParse(v), m.url);

const descriptionField = z
  .string()
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, m.description)
  .refine((v) => !hasUnreadableCharacters(v), m.description);

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.enum(webhookEventTypes)),
    enabled: z.boolean(),
    /** Why it was turned off by us (`failing`: too many failed deliveries in a row), else null. */
    disabledReason: z.enum(['failing']).nullable(),
    consecutiveFailures: z.number().int(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const createWebhookEndpointBody = z.object({
  url: urlField,
  description: descriptionField.default(''),
  eventTypes: eventTypesField,
  enabled: z.boolean().default(true),
});
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointBody>;

export const updateWebhookEndpointBody = z.object({
  url: urlField.optional(),
  description: descriptionField.optional(),
  eventTypes: eventTypesField.optional(),
  /** Turning an endpoint back on clears its failure count and delivers what waited. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointBody>;

export const webhookDeliverySchema = z
  .object({
    /** The `webhook-id` header: the same on every attempt and on "Resend". */
    id: z.string(),
    eventId: z.string(),
    type: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    /** The endpoint's last HTTP status, or null when it could not be reached. */
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: isoDateTime,
    lastAttemptAt: isoDateTime.nullable(),
    nextAttemptAt: isoDateTime.nullable(),
    deliveredAt: isoDateTime.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const idParams = z.object({ id: idSchema });
const deliveryParams = z.object({ id: idSchema, deliveryId: idSchema });

export const developersRoutes = {
  vendorApiKeys: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/api-keys',
    auth: 'bearer',
    summary: "The storefront's API keys, newest first, revoked ones included.",
    tags: ['vendor-developers'],
    status: 200,
    response: z.object({ apiKeys: z.array(apiKeySchema) }),
  }),
  createApiKey: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/api-keys',
    auth: 'bearer',
    summary:
      'Creates an API key with the chosen scopes. Needs two-factor on and a current code. The key (`secret`) is in this answer only; we keep its hash.',
    description: [
      'Call the vendor routes that name a scope with `Authorization: Bearer <key>` instead of a session.',
      'Keys start `tsk_live_` (production) or `tsk_test_` (elsewhere). Each route of the API reference says',
      'the scope it needs (`x-api-key-scope`); a key without it is answered 403, a revoked or unknown one',
      '401, and keys are limited per key per minute (429 with `Retry-After`).',
      '',
      '```sh',
      'curl -H "Authorization: Bearer tsk_live_…" https://tradeshelf.example/api/v1/vendor/purchases',
      '```',
    ].join('\n'),
    tags: ['vendor-developers'],
    status: 201,
    body: createApiKeyBody,
    response: z.object({ apiKey: apiKeySchema, secret: z.string() }),
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/api-keys/{id}',
    auth: 'bearer',
    summary:
      'Revokes an API key: calls with it are refused from now on. Repeating it changes nothing.',
    tags: ['vendor-developers'],
    status: 200,
    params: idParams,
    response: z.object({ apiKey: apiKeySchema }),
  }),
  vendorWebhookEndpoints: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/webhooks',
    auth: 'bearer',
    summary: "The storefront's webhook endpoints.",
    tags: ['vendor-developers'],
    status: 200,
    response: z.object({ endpoints: z.array(webhookEndpointSchema) }),
  }),
  createWebhookEndpoint: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/webhooks',
    auth: 'bearer',
    summary:
      'Adds an endpoint. Its signing secret (`whsec_…`, Standard Webhooks) is in the answer and can be read again.',
    description: [
      'Each delivery is a POST of `{ id, type, version, createdAt, data }` with the headers `webhook-id`,',
      '`webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the',
      'base64-decoded secret after `whsec_`). Any Standard Webhooks library verifies it. Answer 2xx within 10 s;',
      'anything else is retried with backoff for a day. URLs must be https and public.',
    ].join('\n'),
    tags: ['vendor-developers'],
    status: 201,
    body: createWebhookEndpointBody,
    response: z.object({ endpoint: webhookEndpointSchema, secret: z.string() }),
  }),
  updateWebhookEndpoint: defineRoute({
    method: 'PATCH',
    path: '/api/v1/vendor/webhooks/{id}',
    auth: 'bearer',
    summary: 'Changes an endpoint’s URL, description, events, or turns it on or off.',
    tags: ['vendor-developers'],
    status: 200,
    params: idParams,
    body: updateWebhookEndpointBody,
    response: z.object({ endpoint: webhookEndpointSchema }),
  }),
  deleteWebhookEndpoint: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/webhooks/{id}',
    auth: 'bearer',
    summary: 'Deletes an endpoint and its delivery log; nothing more is sent to it.',
    tags: ['vendor-developers'],
    status: 200,
    params: idParams,
    response: messageResponse,
  }),
  webhookEndpointSecret: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/webhooks/{id}/secret',
    auth: 'bearer',
    summary: "The endpoint's signing secret.",
    tags: ['vendor-developers'],
    status: 200,
    params: idParams,
    response: z.object({ secret: z.string() }),
  }),
  webhookDeliveries: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/webhooks/{id}/deliveries',
    auth: 'bearer',
    summary: "The endpoint's delivery log, newest first.",
    tags: ['vendor-developers'],
    status: 200,
    params: idParams,
    query: pageQuery,
    response: z.object({
      deliveries: z.array(webhookDeliverySchema),
      nextCursor: z.string().nullable(),
    }),
  }),
  resendWebhookDelivery: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/webhooks/{id}/deliveries/{deliveryId}/resend',
    auth: 'bearer',
    summary:
      'Sends a delivery again with the same `webhook-id` and body (a fresh timestamp and signature).',
    tags: ['vendor-developers'],
    status: 200,
    params: deliveryParams,
    response: z.object({ delivery: webhookDeliverySchema }),
  }),
  sendTestWebhook: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/webhooks/{id}/test',
    auth: 'bearer',
    summary: 'Queues a `webhook.test` event to the endpoint.',
    tags: ['vendor-developers'],
    status: 201,
    params: idParams,
    response: z.object({ delivery: webhookDeliverySchema }),
  }),
} as const;
