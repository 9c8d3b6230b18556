// The access module's public entry (ARCHITECTURE §2): other modules import this file only.
export {
  entitlementsOfPurchases,
  grantedProducts,
  liveAccess,
  type EntitlementKind,
  type EntitlementView,
} from './queries.ts';
export { reconcileAll, type ReconcileResult } from './reconcile.ts';
export { watchMembers } from './watch.ts';
