// The membership module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { currentPlan, type CurrentPlan } from './status.ts';
export { runSavedSearchAlerts } from './alerts.ts';
