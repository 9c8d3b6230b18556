import { vendorBundlesRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../../platform/image-upload.ts';
import { registerRoute } from '../../../platform/routes.ts';
import { removeBundleCover, uploadBundleCover } from './cover.ts';
import { listVendorBundles } from './list.ts';
import { bundleProductChoices } from './products.ts';
import { setBundlePublished } from './publish.ts';
import { vendorBundle } from './read.ts';
import { createVendorBundle, updateVendorBundle } from './save.ts';

/** The vendor workspace's bundle editor (issue 19, ADR 046): HTTP only. */
export function vendorBundleRoutes(app: FastifyInstance): void {
  const deps = app.deps;
  registerRoute(app, r.vendorBundles, ({ query, auth }) =>
    listVendorBundles(deps, auth.sub, query),
  );
  registerRoute(app, r.vendorBundleProducts, ({ query, auth }) =>
    bundleProductChoices(deps, auth.sub, query),
  );
  registerRoute(app, r.vendorBundle, async ({ params, auth }) => ({
    bundle: await vendorBundle(deps, auth.sub, params.id),
  }));
  registerRoute(app, r.createVendorBundle, async ({ body, auth }) => ({
    bundle: await createVendorBundle(deps, auth.sub, body),
  }));
  registerRoute(app, r.updateVendorBundle, async ({ params, body, auth }) => ({
    bundle: await updateVendorBundle(deps, auth.sub, params.id, body),
  }));
  registerRoute(app, r.publishVendorBundle, async ({ params, body, auth }) => ({
    bundle: await setBundlePublished(
      deps,
      auth.sub,
      params.id,
      true,
      body?.confirmPriceAboveValue ?? false,
    ),
  }));
  registerRoute(app, r.unpublishVendorBundle, async ({ params, auth }) => ({
    bundle: await setBundlePublished(deps, auth.sub, params.id, false),
  }));
  registerRoute(app, r.removeVendorBundleCover, async ({ params, auth }) => ({
    bundle: await removeBundleCover(deps, auth.sub, params.id),
  }));
  registerRoute(
    app,
    r.uploadVendorBundleCover,
    async ({ auth, params, req }) => ({
      bundle: await uploadBundleCover(deps, auth.sub, params.id, imageUpload(req)),
    }),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
}
