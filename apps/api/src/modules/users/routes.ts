import { AVATAR_MAX_BYTES, usersRoutes } from '@tradeshelf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import { AppError } from '../../platform/errors.ts';
import * as users from './service.ts';

/** Reads the single `file` part; reading stops at the size limit and reports truncation. */
async function readFilePart(
  req: FastifyRequest,
): Promise<{ bytes: Buffer; truncated: boolean } | null> {
  if (!req.isMultipart()) {
    throw new AppError('unsupported_media_type', 'Send the image as multipart/form-data.');
  }
  for await (const part of req.parts({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } })) {
    if (part.type !== 'file' || part.fieldname !== 'file') continue;
    const chunks: Buffer[] = [];
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks), truncated: part.file.truncated };
  }
  return null;
}

export async function usersModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;

  registerRoute(app, usersRoutes.getProfile, async ({ auth }) => ({
    user: await users.getProfile(deps, auth.sub),
  }));
  registerRoute(app, usersRoutes.updateProfile, async ({ auth, body }) => ({
    user: await users.updateUsername(deps, auth.sub, body.username),
  }));
  registerRoute(app, usersRoutes.addVendorRole, ({ auth }) => users.becomeVendor(deps, auth.sub));
  registerRoute(
    app,
    usersRoutes.imageUpload,
    async ({ auth, req }) => users.uploadAvatar(deps, auth.sub, await readFilePart(req)),
    { bodyLimit: AVATAR_MAX_BYTES + 64 * 1024 },
  );
}
