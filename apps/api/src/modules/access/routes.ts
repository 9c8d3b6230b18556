import { discordMessages, discordRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/origin.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { bind, installed, installUrl, serverRoles } from './bindings.ts';
import { communitiesOf, reconnect } from './communities.ts';
import { authorizeUrl, completeLink, linkOf, unlink } from './discord-link.ts';
import { communityProducts, unbind, vendorServers } from './vendor-discord.ts';

export async function accessModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, discordMessages.vendorsOnly);
  registerRoute(app, discordRoutes.discordAuthorize, ({ query, auth, req }) =>
    authorizeUrl(deps, auth.sub, query.vendorUrl ?? null, originOf(req)),
  );
  registerRoute(app, discordRoutes.discordOauthResponse, async ({ query, auth, req }) => {
    const discord = await completeLink(deps, auth.sub, query, originOf(req));
    return { discord, communities: await communitiesOf(deps, auth.sub) };
  });
  registerRoute(app, discordRoutes.discordUnlink, async ({ auth }) => {
    await unlink(deps, auth.sub);
    return { discord: null };
  });
  registerRoute(app, discordRoutes.userDiscord, async ({ auth }) => ({
    discord: await linkOf(deps, auth.sub),
  }));
  registerRoute(app, discordRoutes.userCommunities, async ({ auth }) => ({
    communities: await communitiesOf(deps, auth.sub),
  }));
  registerRoute(app, discordRoutes.reconnectCommunity, async ({ params, auth }) => {
    const community = await reconnect(deps, auth.sub, params.id);
    return { result: community, community };
  });
  vendorRoute(discordRoutes.vendorDiscordInstall, ({ auth, req }) =>
    installUrl(deps, auth.sub, originOf(req)),
  );
  vendorRoute(discordRoutes.vendorDiscordInstalled, async ({ query, auth, vendorId, req }) => ({
    server: await installed(deps, auth.sub, vendorId, query, originOf(req)),
  }));
  vendorRoute(discordRoutes.vendorDiscordRoles, ({ params, vendorId }) =>
    serverRoles(deps, vendorId, params.id),
  );
  vendorRoute(discordRoutes.vendorBindCommunity, async ({ body, vendorId }) => ({
    binding: await bind(deps, vendorId, body),
  }));
  vendorRoute(discordRoutes.vendorDiscordServers, ({ vendorId }) => vendorServers(deps, vendorId));
  vendorRoute(discordRoutes.vendorCommunityProducts, ({ query, vendorId }) =>
    communityProducts(deps, vendorId, query),
  );
  vendorRoute(discordRoutes.vendorUnbindCommunity, ({ params, vendorId }) =>
    unbind(deps, vendorId, params.productId),
  );
}
