import { catalogRoutes } from '@tradeshelf/contract';
import * as catalog from './modules/catalog/service.ts';
import { pageRead, type PageRead } from './platform/web.ts';

/**
 * The reads SSR loaders make, answered in process without HTTP emulation (ADR 013). Each entry is
 * the service call its route in `modules/<domain>/routes.ts` makes; keep the two in step. A route
 * missing here still works from a loader, through `app.inject`.
 */
export const pageReads: readonly PageRead[] = [
  pageRead(catalogRoutes.productDetails, async (deps, { query }, userId) => ({
    product: await catalog.productDetails(deps, userId, query.id),
  })),
  pageRead(catalogRoutes.bundleDetails, async (deps, { query }, userId) => ({
    bundle: await catalog.bundleDetails(deps, userId, query.id),
  })),
  pageRead(catalogRoutes.search, (deps, { query }, userId) => catalog.search(deps, userId, query)),
  pageRead(catalogRoutes.topVendors, async (deps, { query }) => ({
    vendors: await catalog.topVendors(deps, query.limit),
  })),
  pageRead(catalogRoutes.vendorProfile, async (deps, { query }) => ({
    vendor: await catalog.vendorProfile(deps, query.vendorUrl),
  })),
  pageRead(catalogRoutes.sellerProductList, (deps, { query }, userId) =>
    catalog.sellerProducts(deps, userId, query.vendorUrl, query.isActive),
  ),
];
