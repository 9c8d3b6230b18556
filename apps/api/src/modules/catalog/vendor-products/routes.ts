import { vendorProductsRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../../platform/image-upload.ts';
import { registerRoute } from '../../../platform/routes.ts';
import { addVendorProductImage, setVendorProductImages } from './images.ts';
import { listVendorProducts } from './list.ts';
import { setPublished } from './publish.ts';
import { vendorProduct } from './read.ts';
import { createVendorProduct, updateVendorProduct } from './save.ts';

/** The vendor workspace's product editor (issue 19, ADR 040): HTTP only. */
export function vendorProductRoutes(app: FastifyInstance): void {
  const deps = app.deps;
  registerRoute(app, r.vendorProducts, ({ query, auth }) =>
    listVendorProducts(deps, auth.sub, query),
  );
  registerRoute(app, r.vendorProduct, async ({ params, auth }) => ({
    product: await vendorProduct(deps, auth.sub, params.id),
  }));
  registerRoute(app, r.createVendorProduct, async ({ body, auth }) => ({
    product: await createVendorProduct(deps, auth.sub, body),
  }));
  registerRoute(app, r.updateVendorProduct, async ({ params, body, auth }) => ({
    product: await updateVendorProduct(deps, auth.sub, params.id, body),
  }));
  registerRoute(app, r.publishVendorProduct, async ({ params, auth }) => ({
    product: await setPublished(deps, auth.sub, params.id, true),
  }));
  registerRoute(app, r.unpublishVendorProduct, async ({ params, auth }) => ({
    product: await setPublished(deps, auth.sub, params.id, false),
  }));
  registerRoute(app, r.setVendorProductImages, async ({ params, body, auth }) => ({
    product: await setVendorProductImages(deps, auth.sub, params.id, body.images),
  }));
  registerRoute(
    app,
    r.addVendorProductImage,
    async ({ auth, params, req }) => ({
      product: await addVendorProductImage(deps, auth.sub, params.id, imageUpload(req)),
    }),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
}
