import { vendorProductMessages as m, vendorProductsRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../../platform/image-upload.ts';
import { vendorRoutes } from '../vendor-route.ts';
import { addVendorProductImage, setVendorProductImages } from './images.ts';
import { listVendorProducts } from './list.ts';
import { setPublished } from './publish.ts';
import { vendorProduct } from './read.ts';
import { createVendorProduct, updateVendorProduct } from './save.ts';

/** The vendor workspace's product editor (issue 19, ADR 040): HTTP only. */
export function vendorProductRoutes(app: FastifyInstance): void {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, m.setUpStorefront);
  vendorRoute(r.vendorProducts, ({ query, vendorId }) => listVendorProducts(deps, vendorId, query));
  vendorRoute(r.vendorProduct, async ({ params, vendorId }) => ({
    product: await vendorProduct(deps, vendorId, params.id),
  }));
  vendorRoute(r.createVendorProduct, async ({ body, vendorId }) => ({
    product: await createVendorProduct(deps, vendorId, body),
  }));
  vendorRoute(r.updateVendorProduct, async ({ params, body, vendorId }) => ({
    product: await updateVendorProduct(deps, vendorId, params.id, body),
  }));
  vendorRoute(r.publishVendorProduct, async ({ params, vendorId }) => ({
    product: await setPublished(deps, vendorId, params.id, true),
  }));
  vendorRoute(r.unpublishVendorProduct, async ({ params, vendorId }) => ({
    product: await setPublished(deps, vendorId, params.id, false),
  }));
  vendorRoute(r.setVendorProductImages, async ({ params, body, vendorId }) => ({
    product: await setVendorProductImages(deps, vendorId, params.id, body.images),
  }));
  vendorRoute(
    r.addVendorProductImage,
    async ({ auth, vendorId, params, req }) => ({
      product: await addVendorProductImage(deps, auth.sub, vendorId, params.id, imageUpload(req)),
    }),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
}
