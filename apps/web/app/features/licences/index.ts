// The licences feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { deactivateDevice, fetchApps, resetLicenceKey } from './api.ts';

/** The buyer's apps page: keys, devices and downloads. */
export const APPS_PATH = '/apps';
