import { affiliatesRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/origin.ts';
import { registerRoute } from '../../platform/routes.ts';
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
  registerRoute(app, affiliatesRoutes.vendorProgramme, ({ auth }) =>
    vendorProgramme(deps, auth.sub),
  );
  registerRoute(app, affiliatesRoutes.updateVendorProgramme, ({ body, auth }) =>
    updateProgramme(deps, auth.sub, body),
  );
  registerRoute(app, affiliatesRoutes.vendorInvite, ({ body, auth, req }) =>
    inviteAffiliate(deps, auth.sub, body, originOf(req)),
  );
  registerRoute(app, affiliatesRoutes.vendorInvites, ({ auth }) =>
    vendorInvitations(deps, auth.sub),
  );
  registerRoute(app, affiliatesRoutes.vendorRevokeInvite, ({ params, auth }) =>
    revokeInvite(deps, auth.sub, params.id),
  );
  registerRoute(app, affiliatesRoutes.vendorAffiliates, ({ query, auth }) =>
    vendorAffiliates(deps, auth.sub, query),
  );
  if (deps.config.APP_ENV === 'local') await app.register(sandboxClockPages);
}
