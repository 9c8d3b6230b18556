// The deliverables module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { storedDeliverableBytes } from './repository.ts';
export type { DeliveryHooks } from './owner.ts';
export { addPublishedFile, latestFiles, publishedFiles, type PublishedFile } from './files.ts';
export { ownProduct as ownDeliverableProduct, publish, uploadDeliverable } from './vendor.ts';
export { deliverySummary } from './summary.ts';
