import { AVATAR_MAX_BYTES, usersMessages, usersRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRoute } from '../../platform/routes.ts';
import * as users from './service.ts';

export async function usersModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;

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
    ({ auth, req }) =>
      users.uploadAvatar(
        deps,
        auth.sub,
        fileUpload(req, {
          field: 'file',
          maxBytes: AVATAR_MAX_BYTES,
          tooLarge: usersMessages.imageTooLarge,
        }),
      ),
    { bodyLimit: AVATAR_MAX_BYTES + 64 * 1024 },
  );
}
