import { catalogRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import * as catalog from './service.ts';
import { sitemapRoutes } from './sitemap.ts';

export async function catalogModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  await app.register(sitemapRoutes);
  registerRoute(app, catalogRoutes.vendorProfile, async ({ query }) => ({
    vendor: await catalog.vendorProfile(deps, query.vendorUrl),
  }));
  registerRoute(app, catalogRoutes.sellerProductList, ({ query, auth }) =>
    catalog.sellerProducts(deps, auth?.sub ?? null, query.vendorUrl, query.isActive),
  );
  registerRoute(app, catalogRoutes.productDetails, async ({ query, auth }) => ({
    product: await catalog.productDetails(deps, auth?.sub ?? null, query.id),
  }));
  registerRoute(app, catalogRoutes.search, ({ query, auth }) =>
    catalog.search(deps, auth?.sub ?? null, query),
  );
  registerRoute(app, catalogRoutes.bundleDetails, async ({ query, auth }) => ({
    bundle: await catalog.bundleDetails(deps, auth?.sub ?? null, query.id),
  }));
  registerRoute(app, catalogRoutes.topVendors, async ({ query }) => ({
    vendors: await catalog.topVendors(deps, query.limit),
  }));
  registerRoute(app, catalogRoutes.validatePrerequisites, ({ body, auth }) =>
    catalog.missingPrerequisites(deps, auth.sub, body.productId),
  );
}
