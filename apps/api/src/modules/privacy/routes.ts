import { accountDataRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import { deleteAccount, exportAccount } from './account-data.ts';

export async function privacyModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  registerRoute(app, accountDataRoutes.accountExport, ({ auth: claims, body, reply }) => {
    // A file to keep: the browser saves it, and no cache keeps a copy.
    reply.header('content-disposition', 'attachment; filename="tradeshelf-account.json"');
    reply.header('cache-control', 'no-store');
    return exportAccount(deps, claims.sub, body);
  });
  registerRoute(app, accountDataRoutes.accountDelete, ({ auth: claims, body }) =>
    deleteAccount(deps, claims.sub, body),
  );
}
