import { catalogRoutes } from '@tradeshelf/contract';
import { addressKey, rules } from '../../platform/rate-limit.ts';
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
  pageRead(catalogRoutes.search, async (deps, { query }, userId, clientIp) => {
    // Searching costs CPU: per address, pages rendered for a browser included (ADR 049).
    const rule = { ...rules.searchIp, limit: deps.config.SEARCH_LIMIT_PER_IP_MINUTE };
    await deps.limiter.consume([{ rule, key: addressKey(clientIp) }]);
    return catalog.search(deps, userId, query);
  }),
  pageRead(catalogRoutes.bundleDetails, async (deps, { query }, userId) => ({
    bundle: await catalog.bundleDetails(deps, userId, query.id),
  })),
  pageRead(catalogRoutes.topVendors, async (deps, { query }) => ({
    vendors: await catalog.topVendors(deps, query.limit),
  })),
];
