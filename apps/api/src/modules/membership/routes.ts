import { membershipRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  updateSavedSearch,
} from './saved-searches.ts';
import { membershipOf } from './status.ts';
import { unsubscribe } from './unsubscribe.ts';

export async function membershipModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  registerRoute(app, membershipRoutes.membership, async ({ auth }) => ({
    membership: await membershipOf(deps, auth.sub),
  }));
  registerRoute(app, membershipRoutes.listSavedSearches, ({ query, auth }) =>
    listSavedSearches(deps, auth.sub, query.limit, query.cursor),
  );
  registerRoute(app, membershipRoutes.createSavedSearch, async ({ body, auth }) => ({
    savedSearch: await createSavedSearch(deps, auth.sub, body),
  }));
  registerRoute(app, membershipRoutes.updateSavedSearch, async ({ params, body, auth }) => ({
    savedSearch: await updateSavedSearch(deps, auth.sub, params.id, body),
  }));
  registerRoute(app, membershipRoutes.deleteSavedSearch, async ({ params, auth }) => {
    await deleteSavedSearch(deps, auth.sub, params.id);
    return { message: 'Saved search deleted.' };
  });
  registerRoute(app, membershipRoutes.unsubscribeSavedSearch, ({ body }) =>
    unsubscribe(deps, body.token),
  );
}
