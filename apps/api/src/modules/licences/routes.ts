import { licencesRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { addressKey } from '../../platform/rate-limit.ts';
import { registerRoute } from '../../platform/routes.ts';
import { activate } from './activate.ts';
import { deactivate } from './deactivate.ts';
import { downloadLink } from './download.ts';
import { vendorPublicKey } from './public-key.ts';
import { licencesOf } from './queries.ts';
import { deactivateDevice, resetKey } from './self-service.ts';
import { validate } from './validate.ts';

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
}
