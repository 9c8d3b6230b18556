// The licences feature's public entry: other features import this file only (ARCHITECTURE §2).
export { deactivateDevice, fetchApps, resetLicenceKey } from './api.ts';
export { APPS_PATH } from '../../lib/paths.ts';
