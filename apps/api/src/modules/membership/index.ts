// The membership module's public entry (ARCHITECTURE §2): other modules import this file only.
export { currentPlan, type CurrentPlan } from './status.ts';
export { runSavedSearchAlerts } from './alerts.ts';
