// The user feature's public entry: other features import this file only (ARCHITECTURE §2).
export { addVendorRole, fetchProfile, openCustomerPortal } from './api.ts';
