/**
 * Vendors who automate (issue 33, ADR 057): API keys and outbound webhooks. Plain values, no zod
 * (ADR 012). Behaviour: docs/product.md#api-keys-and-webhooks.
 */

/** What an API key may do. */
export const apiKeyScopes = [
  'sales:read',
  'products:write',
  'licences:write',
  'alerts:write',
] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export const apiKeyScopeWords: Record<ApiKeyScope, string> = {
  'sales:read': 'Read sales, customers and analytics',
  'products:write': 'Create and edit products',
  'licences:write': 'Change licence terms and revoke access',
  'alerts:write': 'Publish alerts to your alert products',
};

/** Every API key starts with this; `tsk_live_` in production, `tsk_test_` elsewhere. */
export const API_KEY_PREFIX = 'tsk_';
export const API_KEY_NAME_MAX = 60;
export const API_KEYS_PER_VENDOR = 20;

/**
 * The webhook event types a vendor can subscribe to, each at its current payload version. A new
 * version of a type changes its name's version here and in the payload's `version`, never the
 * shape of a version already sent.
 */
export const webhookEventTypes = [
  'sale.completed',
  'sale.refunded',
  'sale.disputed',
  'subscription.started',
  'subscription.renewed',
  'subscription.ended',
  'licence.issued',
  'licence.activated',
  'licence.revoked',
  'access.granted',
  'access.failed',
  'access.ended',
  'review.posted',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
/** Sent only by "Send test event"; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_PAYLOAD_VERSION = 1;

export const webhookEventWords: Record<WebhookEventType, string> = {
  'sale.completed': 'A sale was paid',
  'sale.refunded': 'A sale was refunded (in part or whole)',
  'sale.disputed': 'A buyer disputed a payment',
  'subscription.started': 'A subscription started (a free trial included)',
  'subscription.renewed': 'A subscription renewed',
  'subscription.ended': 'A subscription ended',
  'licence.issued': 'A licence key was issued',
  'licence.activated': 'A licence was activated on a device',
  'licence.revoked': 'A licence was revoked',
  'access.granted': 'Discord access was granted',
  'access.failed': 'Discord access could not be granted',
  'access.ended': 'Discord access ended',
  'review.posted': 'A buyer posted or edited a review',
};

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_ENDPOINTS_PER_VENDOR = 10;

export const developersMessages = {
  vendorsOnly: 'Only vendors can use API keys and webhooks. Set up your storefront first.',
  keyName: 'Give the key a name of up to 60 characters.',
  keyScopes: 'Choose at least one scope.',
  tooManyKeys: `A storefront can have up to ${API_KEYS_PER_VENDOR} active keys. Revoke one first.`,
  twoFactorCode: 'Enter a current code from your authenticator app to create an API key.',
  keyNotFound: 'We could not find that API key.',
  keyInvalid: 'This API key is not valid, or it was revoked.',
  keyScope: (scope: string) => `This API key does not have the ${scope} scope.`,
  keyNotHere: 'API keys cannot call this route. Sign in instead.',
  endpointNotFound: 'We could not find that webhook endpoint.',
  deliveryNotFound: 'We could not find that delivery.',
  url: 'Enter the full URL of your endpoint, starting with https://.',
  urlHttps: 'Webhook URLs must start with https://.',
  urlRefused:
    'That address is private or local (loopback, link-local, private network …); webhooks go to public addresses only.',
  urlUnresolved: 'We could not look that host name up. Check the URL.',
  description: 'Keep the description under 200 characters.',
  eventTypes: 'Choose at least one event.',
  tooManyEndpoints: `A storefront can have up to ${WEBHOOK_ENDPOINTS_PER_VENDOR} webhook endpoints.`,
  resent: 'Queued again, with the same webhook-id.',
  testQueued: 'Test event queued.',
  deleted: 'Endpoint deleted.',
} as const;
