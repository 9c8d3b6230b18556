import { vendorBundleMessages as m, vendorBundlesRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../../platform/image-upload.ts';
import { vendorRoutes } from '../vendor-route.ts';
import { removeBundleCover, uploadBundleCover } from './cover.ts';
import { listVendorBundles } from './list.ts';
import { bundleProductChoices } from './products.ts';
import { setBundlePublished } from './publish.ts';
import { vendorBundle } from './read.ts';
import { createVendorBundle, updateVendorBundle } from './save.ts';

/** The vendor workspace's bundle editor (issue 19, ADR 046): HTTP only. */
export function vendorBundleRoutes(app: FastifyInstance): void {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, m.setUpStorefront);
  vendorRoute(r.vendorBundles, ({ query, vendorId }) => listVendorBundles(deps, vendorId, query));
  vendorRoute(r.vendorBundleProducts, ({ query, vendorId }) =>
    bundleProductChoices(deps, vendorId, query),
  );
  vendorRoute(r.vendorBundle, async ({ params, vendorId }) => ({
    bundle: await vendorBundle(deps, vendorId, params.id),
  }));
  vendorRoute(r.createVendorBundle, async ({ body, vendorId }) => ({
    bundle: await createVendorBundle(deps, vendorId, body),
  }));
  vendorRoute(r.updateVendorBundle, async ({ params, body, vendorId }) => ({
    bundle: await updateVendorBundle(deps, vendorId, params.id, body),
  }));
  vendorRoute(r.publishVendorBundle, async ({ params, body, vendorId }) => ({
    bundle: await setBundlePublished(
      deps,
      vendorId,
      params.id,
      true,
      body?.confirmPriceAboveValue ?? false,
    ),
  }));
  vendorRoute(r.unpublishVendorBundle, async ({ params, vendorId }) => ({
    bundle: await setBundlePublished(deps, vendorId, params.id, false),
  }));
  vendorRoute(r.removeVendorBundleCover, async ({ params, vendorId }) => ({
    bundle: await removeBundleCover(deps, vendorId, params.id),
  }));
  vendorRoute(
    r.uploadVendorBundleCover,
    async ({ auth, vendorId, params, req }) => ({
      bundle: await uploadBundleCover(deps, auth.sub, vendorId, params.id, imageUpload(req)),
    }),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
}
