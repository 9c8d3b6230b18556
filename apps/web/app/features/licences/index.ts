// The licences feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { deactivateDevice, fetchApps, resetLicenceKey } from './api.ts';
export { APPS_PATH } from '../../lib/paths.ts';
