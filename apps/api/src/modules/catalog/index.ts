// The catalog module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { missingPrerequisites, vendorContact } from './service.ts';
export { ownsItem } from './ownership.ts';
export { setProductRating } from './ratings.ts';
export { newestPublishedAt, productCardsById, productIdsBySlug } from './lookups.ts';
export { search } from './service.ts';
export {
  bundleForCheckout,
  plansForCheckout,
  productsOfItem,
  vendorUrlOfPrice,
  type CheckoutItemRow,
} from './checkout-items.ts';
export {
  itemSummaries,
  vendorIdByUrl,
  vendorIdOfUser,
  vendorIsNew,
  vendorSummaries,
  vendorUserIds,
  type ItemSummary,
  type VendorSummary,
} from './summaries.ts';
export { vendorRoutes, type VendorContext } from './vendor-route.ts';
export {
  vendorProductCursor,
  vendorProductPage,
  vendorProductRefs,
  type VendorProductRef,
} from './vendor-product-refs.ts';
export { vendorItems, type VendorItem } from './vendor-products.ts';
export {
  productBasics,
  vendorProduct,
  vendorProductOfKind,
  type VendorProductRow,
} from './vendor-kinds.ts';
export {
  demoCourseCounts,
  demoCourseOutline,
  demoLessonRole,
  type DemoModule,
} from './demo-courses.ts';
export { closeStorefront, storefrontClosed, storefrontExport } from './account-data.ts';
export { sellerDetailsOf, type SellerDetails } from './business-details.ts';
