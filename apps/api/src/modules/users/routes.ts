import { invoiceMessages, invoicesRoutes, usersRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../platform/image-upload.ts';
import { registerRoute } from '../../platform/routes.ts';
import { billingOf, saveBilling } from './billing.ts';
import * as users from './service.ts';

export async function usersModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;

  // What receipts print for the buyer (ADR 060).
  registerRoute(app, invoicesRoutes.billingDetails, async ({ auth }) => ({
    billing: await billingOf(deps.database.db, auth.sub),
  }));
  registerRoute(app, invoicesRoutes.saveBillingDetails, async ({ auth, body }) => ({
    message: invoiceMessages.billingSaved,
    billing: await saveBilling(deps.database.db, auth.sub, body),
  }));
  registerRoute(app, usersRoutes.getProfile, async ({ auth }) => ({
    user: await users.getProfile(deps, auth.sub),
  }));
  registerRoute(app, usersRoutes.updateProfile, async ({ auth, body }) => ({
    user: await users.updateUsername(deps, auth.sub, body.username),
  }));
  registerRoute(app, usersRoutes.addVendorRole, ({ auth }) =>
    users.becomeVendor(deps, auth.sub, auth.sid),
  );
  registerRoute(
    app,
    usersRoutes.imageUpload,
    ({ auth, req }) => users.uploadAvatar(deps, auth.sub, imageUpload(req)),
    { bodyLimit: IMAGE_BODY_LIMIT },
  );
}
