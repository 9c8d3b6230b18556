import { tradingViewMessages, tradingviewRoutes as r } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { createScript, productScripts, setProductScripts, vendorScripts } from './scripts.ts';
import { accessStatus, accountOf } from './status.ts';
import { completeTask, listTasks } from './tasks.ts';
import { setUsername } from './usernames.ts';
import { vendorProducts } from './vendor-products.ts';

export async function tradingviewModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, tradingViewMessages.vendorsOnly);
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
  vendorRoute(r.vendorTradingViewTasks, ({ query, vendorId }) => listTasks(deps, vendorId, query));
  vendorRoute(r.completeTradingViewTask, async ({ params, body, auth, vendorId }) => ({
    task: await completeTask(deps, auth.sub, vendorId, params.id, body.note),
  }));
  vendorRoute(r.vendorTradingViewScripts, async ({ vendorId }) => ({
    scripts: await vendorScripts(deps, vendorId),
  }));
  vendorRoute(r.createTradingViewScript, async ({ body, vendorId }) => ({
    script: await createScript(deps, vendorId, body),
  }));
  vendorRoute(r.setProductTradingViewScripts, async ({ params, body, auth, vendorId }) => ({
    product: await setProductScripts(deps, auth.sub, vendorId, params.id, body.scriptIds),
  }));
  vendorRoute(r.vendorTradingViewProducts, ({ query, vendorId }) =>
    vendorProducts(deps, vendorId, query),
  );
}
