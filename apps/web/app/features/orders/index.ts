// The orders feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { fetchPurchaseDetails, fetchPurchaseStatus } from './api.ts';
