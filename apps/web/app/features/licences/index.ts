// The licences feature's public entry: other features import this file only (ARCHITECTURE §2).
export { deactivateDevice, fetchApps, resetLicenceKey } from './api.ts';

/** The buyer's apps page: keys, devices and downloads. */
export const APPS_PATH = '/apps';
