// The user feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { addVendorRole, fetchProfile, openCustomerPortal, updateProfile } from './api.ts';
export { clearUpdateStatus } from './slice.ts';
