import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  ApiKey,
  CreateApiKeyBody,
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

/** Issue 33, ADR 057: the Developers screen's calls, one thunk each. */

export const fetchApiKeys = requestThunk<void, ApiKey[]>(
  'developers/keys',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorApiKeys, {})).apiKeys,
);

export const createApiKey = requestThunk<CreateApiKeyBody, { apiKey: ApiKey; secret: string }>(
  'developers/createKey',
  (body, { api }) => api.call(vendorEndpoints.createApiKey, { body }),
);

export const revokeApiKey = requestThunk<string, ApiKey>(
  'developers/revokeKey',
  async (id, { api }) => (await api.call(vendorEndpoints.revokeApiKey, { params: { id } })).apiKey,
);

export const fetchEndpoints = requestThunk<void, WebhookEndpoint[]>(
  'developers/endpoints',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorWebhookEndpoints, {})).endpoints,
);

export const createEndpoint = requestThunk<
  CreateWebhookEndpointBody,
  { endpoint: WebhookEndpoint; secret: string }
>('developers/createEndpoint', (body, { api }) =>
  api.call(vendorEndpoints.createWebhookEndpoint, { body }),
);

export const updateEndpoint = requestThunk<
  { id: string; body: UpdateWebhookEndpointBody },
  WebhookEndpoint
>(
  'developers/updateEndpoint',
  async ({ id, body }, { api }) =>
    (await api.call(vendorEndpoints.updateWebhookEndpoint, { params: { id }, body })).endpoint,
);

export const deleteEndpoint = requestThunk<string, { message: string }>(
  'developers/deleteEndpoint',
  (id, { api }) => api.call(vendorEndpoints.deleteWebhookEndpoint, { params: { id } }),
);

export const fetchDeliveries = requestThunk<
  { id: string; cursor?: string | undefined },
  { deliveries: WebhookDelivery[]; nextCursor: string | null }
>('developers/deliveries', ({ id, cursor }, { api }) =>
  api.call(vendorEndpoints.webhookDeliveries, {
    params: { id },
    query: { limit: 20, ...(cursor ? { cursor } : {}) },
  }),
);

export const resendDelivery = requestThunk<{ id: string; deliveryId: string }, WebhookDelivery>(
  'developers/resend',
  async (params, { api }) =>
    (await api.call(vendorEndpoints.resendWebhookDelivery, { params })).delivery,
);

export const sendTestEvent = requestThunk<string, WebhookDelivery>(
  'developers/test',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.sendTestWebhook, { params: { id } })).delivery,
);
