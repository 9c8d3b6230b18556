import { developersMessages, developersRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { vendorRoutes } from '../catalog/index.ts';
import * as keys from './api-keys.ts';
import * as hooks from './endpoints.ts';

/** The vendor's API keys and webhooks (issue 33, ADR 057): sessions only, never a key. */
export async function developersModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, developersMessages.vendorsOnly);
  vendorRoute(r.vendorApiKeys, async ({ vendorId }) => ({
    apiKeys: await keys.listApiKeys(deps, vendorId),
  }));
  vendorRoute(r.createApiKey, ({ body, auth, vendorId }) =>
    keys.createApiKey(deps, auth.sub, vendorId, body),
  );
  vendorRoute(r.revokeApiKey, async ({ params, vendorId }) => ({
    apiKey: await keys.revokeApiKey(deps, vendorId, params.id),
  }));
  vendorRoute(r.vendorWebhookEndpoints, async ({ vendorId }) => ({
    endpoints: await hooks.listEndpoints(deps, vendorId),
  }));
  vendorRoute(r.createWebhookEndpoint, ({ body, vendorId }) =>
    hooks.createEndpoint(deps, vendorId, body),
  );
  vendorRoute(r.updateWebhookEndpoint, async ({ params, body, vendorId }) => ({
    endpoint: await hooks.updateEndpoint(deps, vendorId, params.id, body),
  }));
  vendorRoute(r.deleteWebhookEndpoint, ({ params, vendorId }) =>
    hooks.deleteEndpoint(deps, vendorId, params.id),
  );
  vendorRoute(r.webhookEndpointSecret, ({ params, vendorId }) =>
    hooks.endpointSecret(deps, vendorId, params.id),
  );
  vendorRoute(r.webhookDeliveries, ({ params, query, vendorId }) =>
    hooks.deliveries(deps, vendorId, params.id, query),
  );
  vendorRoute(r.resendWebhookDelivery, ({ params, vendorId }) =>
    hooks.resend(deps, vendorId, params.id, params.deliveryId),
  );
  vendorRoute(r.sendTestWebhook, ({ params, vendorId }) =>
    hooks.sendTest(deps, vendorId, params.id),
  );
}
