// The orders feature's public entry: other features import this file only (ARCHITECTURE §2).
export { fetchPurchaseDetails, fetchPurchaseStatus } from './api.ts';
