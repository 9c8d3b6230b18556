import { affiliateMessages, affiliatesRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/origin.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { recordClick } from './clicks.ts';
import { affiliateOverview } from './dashboard.ts';
import {
  acceptInvitation,
  inviteAffiliate,
  pendingInvitations,
  vendorInvitations,
} from './invites.ts';
import { ownPayout, requestPayout } from './payouts.ts';
import { updateProgramme, vendorProgramme } from './programme.ts';
import { sandboxClockPages } from './sandbox-clock.ts';
import { revokeInvite, vendorAffiliates } from './vendor-affiliates.ts';
import { generateRef, listVendors } from './vendors.ts';

export async function affiliatesModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, affiliateMessages.vendorsOnly);
  registerRoute(app, affiliatesRoutes.affiliateVendors, ({ query, auth, req }) =>
    listVendors(deps, auth.sub, originOf(req), query.limit),
  );
  registerRoute(app, affiliatesRoutes.generateRef, async ({ body, auth, req }) => {
    const { referral } = await generateRef(deps, auth.sub, body.vendorId, originOf(req));
    return { data: referral, referral };
  });
  registerRoute(app, affiliatesRoutes.affiliateReferrals, ({ query, auth }) =>
    affiliateOverview(deps, auth.sub, query),
  );
  registerRoute(app, affiliatesRoutes.requestPayout, ({ auth }) => requestPayout(deps, auth.sub));
  registerRoute(app, affiliatesRoutes.affiliatePayout, ({ params, auth }) =>
    ownPayout(deps, auth.sub, params.id),
  );
  registerRoute(app, affiliatesRoutes.pendingInvites, ({ auth }) =>
    pendingInvitations(deps, auth.sub),
  );
  registerRoute(app, affiliatesRoutes.acceptInvite, ({ params, query, auth, req }) =>
    acceptInvitation(deps, auth.sub, params.id, query.vendorId, originOf(req)),
  );
  registerRoute(app, affiliatesRoutes.affiliateClick, ({ body, auth, req }) =>
    recordClick(deps, {
      refId: body.refId,
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500),
      userId: auth?.sub ?? null,
    }),
  );
  vendorRoute(affiliatesRoutes.vendorProgramme, ({ vendorId }) => vendorProgramme(deps, vendorId));
  vendorRoute(affiliatesRoutes.updateVendorProgramme, ({ body, vendorId }) =>
    updateProgramme(deps, vendorId, body),
  );
  vendorRoute(affiliatesRoutes.vendorInvite, ({ body, auth, vendorId, req }) =>
    inviteAffiliate(deps, auth.sub, vendorId, body, originOf(req)),
  );
  vendorRoute(affiliatesRoutes.vendorInvites, ({ vendorId }) => vendorInvitations(deps, vendorId));
  vendorRoute(affiliatesRoutes.vendorRevokeInvite, ({ params, vendorId }) =>
    revokeInvite(deps, vendorId, params.id),
  );
  vendorRoute(affiliatesRoutes.vendorAffiliates, ({ query, vendorId }) =>
    vendorAffiliates(deps, vendorId, query),
  );
  if (deps.config.APP_ENV === 'local') await app.register(sandboxClockPages);
}
