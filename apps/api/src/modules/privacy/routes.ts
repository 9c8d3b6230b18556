import { accountDataRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { jsonStream } from '../../platform/json-stream.ts';
import { registerRoute } from '../../platform/routes.ts';
import { deleteAccount, exportAccount } from './account-data.ts';

export async function privacyModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  registerRoute(app, accountDataRoutes.accountExport, async ({ auth: claims, body, reply }) => {
    // Checked before a byte is sent: a refusal is an ordinary error answer.
    const data = await exportAccount(deps, claims.sub, body);
    // A file to keep: the browser saves it, and no cache keeps a copy. Written as it is read
    // (ADR 060), so it is not serialised whole: its lists are typed by the contract's schema, and
    // tests check the text against it.
    reply.header('content-disposition', 'attachment; filename="tradeshelf-account.json"');
    reply.header('cache-control', 'no-store');
    reply.type('application/json; charset=utf-8');
    return jsonStream(data) as never;
  });
  registerRoute(app, accountDataRoutes.accountDelete, ({ auth: claims, body }) =>
    deleteAccount(deps, claims.sub, body),
  );
}
