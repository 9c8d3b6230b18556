// What the alerts slice takes from other modules, through their entries (docs/architecture.md#boundaries).
export { accessOf, bindingOf, discordRoleState, liveAccess, liveHolders } from '../access/index.ts';
export {
  productBasics,
  vendorIdByUrl,
  vendorProductOfKind,
  vendorProductRefs,
  vendorSummaries,
} from '../catalog/index.ts';
export { contactsOf, emailIn } from '../users/index.ts';
