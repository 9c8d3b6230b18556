// The reviews module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { reviewsExport } from './account-data.ts';
