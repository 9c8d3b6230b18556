// The one answer to "which vendor is calling, or 403" (issue 28): a vendor route resolves the caller's
// vendor before its handler runs and hands the use case `vendorId`. Catalog owns the vendors table.
import type { RouteDef } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { registerRoute, type Handler, type HandlerContext } from '../../platform/routes.ts';
import { vendorIdOfUser } from './summaries.ts';

type BearerRoute = RouteDef & { auth: 'bearer' };

export type VendorContext<R extends BearerRoute> = HandlerContext<R> & {
  /** The vendor the signed-in user runs. */
  vendorId: string;
};

type RouteOptions = Parameters<typeof registerRoute>[3];

/**
 * Registers a module's vendor routes: each is a bearer route whose caller must run a storefront;
 * anyone else gets 403 with `noVendor`, the module's own words for it.
 */
export function vendorRoutes(app: FastifyInstance, noVendor: string) {
  return function vendorRoute<R extends BearerRoute>(
    def: R,
    handler: (ctx: VendorContext<R>) => ReturnType<Handler<R>>,
    options?: RouteOptions,
  ): void {
    registerRoute(
      app,
      def,
      async (ctx) => {
        const claims = ctx.auth as HandlerContext<BearerRoute>['auth'];
        // An API key belongs to one storefront (ADR 057); a session is its user's.
        const vendorId =
          claims.apiKey?.vendorId ?? (await vendorIdOfUser(app.deps.database.db, claims.sub));
        if (!vendorId) throw new AppError('forbidden', noVendor);
        return handler({ ...ctx, vendorId });
      },
      options,
    );
  };
}
