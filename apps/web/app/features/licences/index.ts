// The licences feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { appsCall, deactivateDeviceCall, resetLicenceKeyCall } from './actions.ts';
export { APPS_PATH } from '../../lib/paths.ts';
