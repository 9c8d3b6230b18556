// The reviews module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { reviewPages } from './account-data.ts';
