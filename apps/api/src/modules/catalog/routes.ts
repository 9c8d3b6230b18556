import { AVATAR_MAX_BYTES, catalogRoutes, usersMessages } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { fileUpload } from '../../platform/multipart.ts';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { addProductImage } from './product-images.ts';
import { catalogReads } from './reads.ts';
import * as catalog from './service.ts';
import { sitemapRoutes } from './sitemap.ts';

export async function catalogModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  await app.register(sitemapRoutes);
  for (const read of catalogReads) registerRead(app, read);
  registerRoute(
    app,
    catalogRoutes.addProductImage,
    async ({ auth, params, req }) => ({
      product: await addProductImage(
        deps,
        auth.sub,
        params.id,
        fileUpload(req, {
          field: 'file',
          maxBytes: AVATAR_MAX_BYTES,
          tooLarge: usersMessages.imageTooLarge,
        }),
      ),
    }),
    { bodyLimit: AVATAR_MAX_BYTES + 64 * 1024 },
  );
  registerRoute(app, catalogRoutes.validatePrerequisites, ({ body, auth }) =>
    catalog.missingPrerequisites(deps, auth.sub, body.productId),
  );
}
