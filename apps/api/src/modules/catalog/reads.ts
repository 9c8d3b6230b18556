import { catalogRoutes } from '@tradeshelf/contract';
import { addressKey, rules } from '../../platform/rate-limit.ts';
import { pageRead, type PageRead } from '../../platform/routes.ts';
import { publicRead } from './catalog-changes.ts';
import * as catalog from './service.ts';

/**
 * The catalogue's public reads: served over HTTP and read in process by SSR loaders (ADR 013). An
 * anonymous reader's may be answered by the read replica (`publicRead`, ADR 061).
 */
export const catalogReads: readonly PageRead[] = [
  pageRead(catalogRoutes.vendorProfile, async (deps, { query }, userId) => ({
    vendor: await publicRead(deps, userId, () => catalog.vendorProfile(deps, query.vendorUrl)),
  })),
  pageRead(catalogRoutes.sellerProductList, (deps, { query }, userId) =>
    publicRead(deps, userId, () =>
      catalog.sellerProducts(deps, userId, query.vendorUrl, query.isActive),
    ),
  ),
  pageRead(catalogRoutes.productDetails, async (deps, { query }, userId) => ({
    product: await publicRead(deps, userId, () => catalog.productDetails(deps, userId, query.id)),
  })),
  pageRead(catalogRoutes.search, async (deps, { query }, userId, clientIp) => {
    // Searching costs CPU: per address, pages rendered for a browser included (ADR 049).
    const rule = { ...rules.searchIp, limit: deps.config.SEARCH_LIMIT_PER_IP_MINUTE };
    await deps.limiter.consume([{ rule, key: addressKey(clientIp) }]);
    return publicRead(deps, userId, () => catalog.search(deps, userId, query));
  }),
  pageRead(catalogRoutes.bundleDetails, async (deps, { query }, userId) => ({
    bundle: await publicRead(deps, userId, () => catalog.bundleDetails(deps, userId, query.id)),
  })),
  pageRead(catalogRoutes.topVendors, async (deps, { query }, userId) => ({
    vendors: await publicRead(deps, userId, () => catalog.topVendors(deps, query.limit)),
  })),
];
