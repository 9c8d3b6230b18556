import { supportMessages, supportRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRead, registerRoute } from '../../platform/routes.ts';
import { supportReads } from './reads.ts';
import * as support from './service.ts';

export async function supportModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  for (const read of supportReads) registerRead(app, read);
  registerRoute(app, supportRoutes.contact, async ({ body, req }) => {
    await support.contact(deps, req.ip, body);
    return { message: supportMessages.received };
  });
}
