import {
  LICENCE_BUILD_MAX_BYTES,
  licencesRoutes,
  vendorLicenceMessages,
  vendorLicencesRoutes as vr,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { addressKey } from '../../platform/rate-limit.ts';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { activate } from './activate.ts';
import { deactivate } from './deactivate.ts';
import { downloadLink } from './download.ts';
import { vendorPublicKey } from './public-key.ts';
import { licencesOf } from './queries.ts';
import { deactivateDevice, resetKey } from './self-service.ts';
import { validate } from './validate.ts';
import * as policy from './vendor-policy.ts';

export async function licencesModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  // The buyer's apps page.
  registerRoute(app, licencesRoutes.licences, async ({ auth }) => ({
    licences: await licencesOf(deps, auth.sub),
  }));
  registerRoute(app, licencesRoutes.deactivateLicenceActivation, async ({ params, auth }) => ({
    licence: await deactivateDevice(deps, auth.sub, params.id, params.activationId),
  }));
  registerRoute(app, licencesRoutes.resetLicenceKey, async ({ params, auth }) => ({
    licence: await resetKey(deps, auth.sub, params.id),
  }));
  registerRoute(app, licencesRoutes.licenceDownload, ({ params, auth }) =>
    downloadLink(deps, auth.sub, params.id),
  );
  // The public licence API, for vendors' apps: the key is the credential.
  registerRoute(app, licencesRoutes.activateLicence, ({ body, req }) =>
    activate(deps, addressKey(req.ip), body),
  );
  registerRoute(app, licencesRoutes.validateLicence, ({ body, req }) =>
    validate(deps, addressKey(req.ip), body),
  );
  registerRoute(app, licencesRoutes.deactivateLicence, ({ body, req }) =>
    deactivate(deps, addressKey(req.ip), body),
  );
  registerRoute(app, licencesRoutes.vendorLicencePublicKey, ({ params }) =>
    vendorPublicKey(deps, params.vendorUrl),
  );
  // The vendor's terms, keys and builds (issue 19, ADR 044).
  const vendorRoute = vendorRoutes(app, vendorLicenceMessages.vendorsOnly);
  vendorRoute(vr.vendorLicenceApps, ({ query, vendorId }) =>
    policy.vendorLicenceApps(deps, vendorId, query),
  );
  vendorRoute(vr.vendorLicencePolicy, async ({ params, vendorId }) => ({
    policy: await policy.vendorLicencePolicy(deps, vendorId, params.productId),
  }));
  vendorRoute(vr.updateLicencePolicy, async ({ params, body, vendorId }) => ({
    policy: await policy.updateLicencePolicy(deps, vendorId, params.productId, body),
  }));
  vendorRoute(vr.rotateLicenceKey, ({ vendorId }) => policy.rotateLicenceKey(deps, vendorId));
  vendorRoute(
    vr.uploadLicenceBuild,
    async ({ params, query, auth, vendorId, req }) => ({
      policy: await policy.uploadLicenceBuild(
        deps,
        auth.sub,
        vendorId,
        params.productId,
        query.version,
        fileUpload(req, {
          field: 'file',
          maxBytes: LICENCE_BUILD_MAX_BYTES,
          tooLarge: vendorLicenceMessages.buildTooLarge,
        }),
      ),
    }),
    { bodyLimit: LICENCE_BUILD_MAX_BYTES + 64 * 1024, upload: true },
  );
}
