import { discordRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/origin.ts';
import { registerRoute } from '../../platform/routes.ts';
import { bind, installed, installUrl, serverRoles } from './bindings.ts';
import { communitiesOf, reconnect } from './communities.ts';
import { authorizeUrl, completeLink, linkOf, unlink } from './discord-link.ts';
import { communityProducts, unbind, vendorServers } from './vendor-discord.ts';

export async function accessModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
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
  registerRoute(app, discordRoutes.vendorDiscordInstall, ({ auth, req }) =>
    installUrl(deps, auth.sub, originOf(req)),
  );
  registerRoute(app, discordRoutes.vendorDiscordInstalled, async ({ query, auth, req }) => ({
    server: await installed(deps, auth.sub, query, originOf(req)),
  }));
  registerRoute(app, discordRoutes.vendorDiscordRoles, ({ params, auth }) =>
    serverRoles(deps, auth.sub, params.id),
  );
  registerRoute(app, discordRoutes.vendorBindCommunity, async ({ body, auth }) => ({
    binding: await bind(deps, auth.sub, body),
  }));
  registerRoute(app, discordRoutes.vendorDiscordServers, ({ auth }) =>
    vendorServers(deps, auth.sub),
  );
  registerRoute(app, discordRoutes.vendorCommunityProducts, ({ query, auth }) =>
    communityProducts(deps, auth.sub, query),
  );
  registerRoute(app, discordRoutes.vendorUnbindCommunity, ({ params, auth }) =>
    unbind(deps, auth.sub, params.productId),
  );
}
