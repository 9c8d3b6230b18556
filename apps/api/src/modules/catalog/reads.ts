import { catalogRoutes } from '@tradeshelf/contract';
import { pageRead, type PageRead } from '../../platform/routes.ts';
import * as catalog from './service.ts';

/** The catalogue's public reads: served over HTTP and read in process by SSR loaders (ADR 013). */
export const catalogReads: readonly PageRead[] = [
  pageRead(catalogRoutes.vendorProfile, async (deps, { query }) => ({
    vendor: await catalog.vendorProfile(deps, query.vendorUrl),
  })),
  pageRead(catalogRoutes.sellerProductList, (deps, { query }, userId) =>
    catalog.sellerProducts(deps, userId, query.vendorUrl, query.isActive),
  ),
  pageRead(catalogRoutes.productDetails, async (deps, { query }, userId) => ({
    product: await catalog.productDetails(deps, userId, query.id),
  })),
  pageRead(catalogRoutes.search, (deps, { query }, userId) => catalog.search(deps, userId, query)),
  pageRead(catalogRoutes.bundleDetails, async (deps, { query }, userId) => ({
    bundle: await catalog.bundleDetails(deps, userId, query.id),
  })),
  pageRead(catalogRoutes.topVendors, async (deps, { query }) => ({
    vendors: await catalog.topVendors(deps, query.limit),
  })),
];
