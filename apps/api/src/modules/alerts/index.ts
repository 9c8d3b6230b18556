// The alerts module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { buyerWebhookOwner } from './mail.ts';
export { BUYER_OWNER as ALERT_BUYER_OWNER } from './publish.ts';
