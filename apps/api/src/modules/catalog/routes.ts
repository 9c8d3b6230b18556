import {
  catalogRoutes,
  invoiceMessages,
  invoicesRoutes,
  payoutMessages,
  vendorStorefrontRoutes,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../platform/image-upload.ts';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { businessDetails, saveBusinessDetails } from './business-details.ts';
import { addProductImage } from './product-images.ts';
import { vendorRoutes } from './vendor-route.ts';
import { removeStorefrontImage, setStorefrontImage } from './storefront-images.ts';
import { getStorefront, saveStorefront, vendorUrlAvailability } from './storefront.ts';
import { catalogReads } from './reads.ts';
import * as catalog from './service.ts';
import { sitemapRoutes } from './sitemap.ts';
import { watchCatalogChanges } from './catalog-changes.ts';
import { vendorBundleRoutes } from './vendor-bundles/routes.ts';
import { vendorProductRoutes } from './vendor-products/routes.ts';

export async function catalogModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  await app.register(sitemapRoutes);
  for (const read of catalogReads) registerRead(app, read);
  registerRoute(
    app,
    catalogRoutes.addProductImage,
    async ({ auth, params, req }) => ({
      product: await addProductImage(deps, auth.sub, params.id, imageUpload(req)),
    }),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
  // What the vendor's invoices print as the seller (ADR 060).
  const vendorRoute = vendorRoutes(app, payoutMessages.storefrontFirst);
  vendorRoute(invoicesRoutes.vendorBusinessDetails, async ({ vendorId }) => ({
    business: await businessDetails(deps.database.db, vendorId),
  }));
  vendorRoute(invoicesRoutes.saveVendorBusinessDetails, async ({ vendorId, body }) => ({
    message: invoiceMessages.businessSaved,
    business: await saveBusinessDetails(deps.database.db, vendorId, body),
  }));
  // The vendor's storefront (issue 19, ADR 041).
  registerRoute(app, vendorStorefrontRoutes.vendorStorefront, ({ auth }) =>
    getStorefront(deps, auth.sub),
  );
  registerRoute(app, vendorStorefrontRoutes.saveVendorStorefront, ({ auth, body }) =>
    saveStorefront(deps, auth.sub, body),
  );
  registerRoute(app, vendorStorefrontRoutes.vendorUrlAvailability, ({ auth, query }) =>
    vendorUrlAvailability(deps, auth.sub, query.vendorUrl),
  );
  registerRoute(
    app,
    vendorStorefrontRoutes.uploadStorefrontImage,
    ({ auth, params, req }) => setStorefrontImage(deps, auth.sub, params.kind, imageUpload(req)),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
  registerRoute(app, vendorStorefrontRoutes.removeStorefrontImage, ({ auth, params }) =>
    removeStorefrontImage(deps, auth.sub, params.kind),
  );
  registerRoute(app, catalogRoutes.validatePrerequisites, ({ body, auth }) =>
    catalog.missingPrerequisites(deps, auth.sub, body.productId),
  );
  vendorProductRoutes(app);
  vendorBundleRoutes(app);
  // Another node's edits reach this node's page and search caches within a poll.
  const stopWatching = watchCatalogChanges(deps);
  app.addHook('onClose', async () => stopWatching());
}
