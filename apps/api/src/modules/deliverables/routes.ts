import {
  DELIVERABLE_MAX_BYTES,
  deliverableMessages,
  deliverablesRoutes as r,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../platform/image-upload.ts';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import * as owner from './owner.ts';
import * as vendor from './vendor.ts';

const VENDORS_ONLY = 'Only vendors can attach files to products. Set up your storefront first.';

/** Deliverables (issue 29, ADR 053); `hooks` come from the wiring (the licences module's keys). */
export async function deliverablesModule(
  app: FastifyInstance,
  { hooks }: { hooks: owner.DeliveryHooks },
): Promise<void> {
  const deps = app.deps;
  registerRoute(app, r.ownedDelivery, async ({ params, auth }) => ({
    delivery: await owner.ownedDelivery(deps, hooks, auth.sub, params.productId),
  }));
  registerRoute(app, r.downloadLink, ({ params, auth }) =>
    owner.downloadLink(deps, auth.sub, params.productId, params.versionId),
  );
  registerRoute(app, r.unsubscribeVersionMails, ({ body }) => owner.unsubscribe(deps, body.token));
  registerRoute(app, r.setVersionMails, ({ params, body, auth }) =>
    owner.setVersionMails(deps, auth.sub, params.productId, body.enabled),
  );
  // The signed link itself: no session (a browser follows it), the token says who and what.
  app.get<{ Params: { versionId: string }; Querystring: Record<string, unknown> }>(
    owner.DOWNLOAD_ROUTE,
    { schema: { hide: true } },
    (req, reply) => owner.serveDownload(deps, req.params.versionId, req.query, req.headers, reply),
  );

  const vendorRoute = vendorRoutes(app, VENDORS_ONLY);
  vendorRoute(r.vendorDelivery, async ({ params, vendorId }) => ({
    delivery: await vendor.vendorDelivery(deps, vendorId, params.productId),
  }));
  vendorRoute(r.saveDeliverySettings, async ({ params, body, vendorId }) => ({
    delivery: await vendor.saveSettings(deps, vendorId, params.productId, body),
    message: deliverableMessages.saved,
  }));
  vendorRoute(
    r.addGuideImage,
    ({ params, auth, vendorId, req }) =>
      vendor.addGuideImage(deps, auth.sub, vendorId, params.productId, imageUpload(req)),
    { bodyLimit: IMAGE_BODY_LIMIT, upload: true },
  );
  vendorRoute(
    r.uploadDeliverable,
    ({ params, query, auth, vendorId, req }) =>
      vendor.uploadDeliverable(
        deps,
        auth.sub,
        vendorId,
        params.productId,
        query,
        fileUpload(req, {
          field: 'file',
          maxBytes: DELIVERABLE_MAX_BYTES,
          tooLarge: deliverableMessages.tooLarge,
        }),
      ),
    { bodyLimit: DELIVERABLE_MAX_BYTES + 64 * 1024, upload: true },
  );
  vendorRoute(r.addDeliverableLink, ({ params, body, vendorId }) =>
    vendor.addLink(deps, vendorId, params.productId, body),
  );
  vendorRoute(r.publishDeliverable, ({ params, body, vendorId }) =>
    vendor.publish(deps, vendorId, params.productId, params.versionId, body.notes),
  );
  vendorRoute(r.makeDeliverableCurrent, ({ params, vendorId }) =>
    vendor.setCurrent(deps, vendorId, params.productId, params.versionId),
  );
  vendorRoute(r.deleteDeliverableDraft, ({ params, vendorId }) =>
    vendor.deleteDraft(deps, vendorId, params.productId, params.versionId),
  );
}
