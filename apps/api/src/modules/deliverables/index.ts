// The deliverables module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { storedDeliverableBytes } from './repository.ts';
export type { DeliveryHooks } from './owner.ts';
