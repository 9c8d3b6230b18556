// The developers module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { authenticateApiKey } from './api-keys.ts';
export { vendorWebhookOwner } from './mail.ts';
export { VENDOR_OWNER } from './endpoints.ts';
export { closeDeveloperAccess, developerExport } from './account-data.ts';
