// The access module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export {
  accessHistory,
  accessHolders,
  bindingOf,
  discordRoleState,
  givesDiscordRoles,
  liveHolders,
  accessOf,
  entitlementsOfPurchases,
  grantsOf,
  liveAccess,
  liveEnrolments,
  productEnrolments,
  type Enrolment,
  type EntitlementKind,
  type EntitlementView,
} from './queries.ts';
export { addRoleEntitlements, deliveriesOf } from './entitlements.ts';
export { keptAccess, type UndoneBy } from './kept-access.ts';
export { reconcileAll, type ReconcileResult } from './reconcile.ts';
export { startMemberWatch, watchMembers, type MemberWatch } from './watch.ts';
export { libraryPages } from './account-data.ts';
export { ENTITLEMENT_EVENT_TYPES } from './event-types.ts';
