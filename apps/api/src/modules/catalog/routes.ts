import { catalogRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { catalogReads } from './reads.ts';
import * as catalog from './service.ts';
import { sitemapRoutes } from './sitemap.ts';

export async function catalogModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  await app.register(sitemapRoutes);
  for (const read of catalogReads) registerRead(app, read);
  registerRoute(app, catalogRoutes.validatePrerequisites, ({ body, auth }) =>
    catalog.missingPrerequisites(deps, auth.sub, body.productId),
  );
}
