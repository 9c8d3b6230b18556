import { tradingviewRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import { createScript, productScripts, setProductScripts, vendorScripts } from './scripts.ts';
import { accessStatus, accountOf } from './status.ts';
import { completeTask, listTasks } from './tasks.ts';
import { setUsername } from './usernames.ts';
import { vendorProducts } from './vendor-products.ts';

export async function tradingviewModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  // The buyer: the username, and where access stands.
  registerRoute(app, r.userTradingView, async ({ auth }) => ({
    tradingview: await accountOf(deps.database.db, auth.sub),
  }));
  registerRoute(app, r.setTradingViewUsername, ({ body, auth }) =>
    setUsername(deps, auth.sub, body.username),
  );
  registerRoute(app, r.userTradingViewAccess, ({ auth }) => accessStatus(deps, auth.sub));
  registerRoute(app, r.productTradingViewScripts, async ({ params }) => ({
    scripts: await productScripts(deps, params.id),
  }));
  // The vendor: the access queue and the scripts (screens come with the vendor workspace).
  registerRoute(app, r.vendorTradingViewTasks, ({ query, auth }) =>
    listTasks(deps, auth.sub, query),
  );
  registerRoute(app, r.completeTradingViewTask, async ({ params, body, auth }) => ({
    task: await completeTask(deps, auth.sub, params.id, body.note),
  }));
  registerRoute(app, r.vendorTradingViewScripts, async ({ auth }) => ({
    scripts: await vendorScripts(deps, auth.sub),
  }));
  registerRoute(app, r.createTradingViewScript, async ({ body, auth }) => ({
    script: await createScript(deps, auth.sub, body),
  }));
  registerRoute(app, r.setProductTradingViewScripts, async ({ params, body, auth }) => ({
    product: await setProductScripts(deps, auth.sub, params.id, body.scriptIds),
  }));
  registerRoute(app, r.vendorTradingViewProducts, ({ query, auth }) =>
    vendorProducts(deps, auth.sub, query),
  );
}
