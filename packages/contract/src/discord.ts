import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import {
  accessHealthStatuses,
  DISCORD_OAUTH_CODE_MAX,
  DISCORD_STATE_MAX,
} from './constants/discord.ts';
import { defineRoute } from './route.ts';

export * from './constants/discord.ts';

/** The Discord account linked to the signed-in user. */
export const discordLink = z.object({
  id: z.string(),
  username: z.string(),
  globalName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  linkedAt: isoDateTime,
  /** The person granted `guilds.join`: the platform can put them in servers directly. */
  canJoinServers: z.boolean(),
});
export type DiscordLink = z.infer<typeof discordLink>;

/**
 * How an entitlement stands, in words a buyer understands: `granting` (a job is on it), `needs_link`
 * (connect Discord), `needs_join` (join the server with the invite), `failing` (the reason and the
 * next retry), `active`, `ended` (with why).
 */
export const accessHealth = z.object({
  status: z.enum(accessHealthStatuses),
  message: z.string(),
  nextRetryAt: isoDateTime.nullable(),
  endedReason: z.string().nullable(),
});
export type AccessHealth = z.infer<typeof accessHealth>;

export const accessEvent = z.object({
  type: z.enum(['granted', 'revoked', 'repaired', 'failed', 'needs_buyer']),
  detail: z.string(),
  at: isoDateTime,
});
export type AccessEvent = z.infer<typeof accessEvent>;

/** One paid community of the buyer (docs/product.md#request-groups: communities, each with `_id`). */
export const community = z.object({
  _id: z.string(),
  purchaseId: z.string(),
  vendor: z.object({ vendorUrl: z.string(), displayName: z.string() }),
  product: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
  /** Null until the vendor binds the product to a server. */
  server: z.object({ id: z.string(), name: z.string(), iconUrl: z.string().nullable() }).nullable(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  health: accessHealth,
  /** A single-use invite, when the buyer is linked but not in the server. */
  invite: z.object({ url: z.string(), expiresAt: isoDateTime }).nullable(),
  lastCheckedAt: isoDateTime.nullable(),
  /** Newest first, at most 20. */
  history: z.array(accessEvent),
});
export type Community = z.infer<typeof community>;

export const discordAuthorizeQuery = z.object({
  vendorUrl: z.string().max(64).optional(),
});

export const oauthResponseQuery = z.object({
  code: z
    .string({ error: 'The authorisation code is missing.' })
    .min(1)
    .max(DISCORD_OAUTH_CODE_MAX),
  state: z.string({ error: 'The sign-in state is missing.' }).min(1).max(DISCORD_STATE_MAX),
  vendorUrl: z.string().max(64).optional(),
});

export const communityParams = z.object({ id: idSchema });

/** A vendor binding a product to a server and roles (the vendor workspace's screens come later). */
export const bindCommunityBody = z.object({
  productId: idSchema,
  guildId: z.string().regex(/^\d{1,20}$/, 'Choose a server.'),
  roleIds: z
    .array(z.string().regex(/^\d{1,20}$/, 'Choose roles from the server.'))
    .min(1, 'Choose at least one role.')
    .max(10, 'Choose at most 10 roles.'),
});

export const communityBinding = z.object({
  productId: z.string(),
  server: z.object({ id: z.string(), name: z.string(), iconUrl: z.string().nullable() }),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** A server the vendor added the bot to. */
export const vendorDiscordServer = z.object({
  id: z.string(),
  name: z.string(),
  iconUrl: z.string().nullable(),
  addedAt: isoDateTime,
});
export type VendorDiscordServer = z.infer<typeof vendorDiscordServer>;

/** One of the vendor's community products and what it is bound to (null: not yet). */
export const vendorCommunityProduct = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  isActive: z.boolean(),
  binding: communityBinding.nullable(),
});
export type VendorCommunityProduct = z.infer<typeof vendorCommunityProduct>;
export type CommunityBinding = z.infer<typeof communityBinding>;

export const vendorCommunityProductsQuery = pageQuery;
export const unbindCommunityParams = z.object({ productId: idSchema });

export const discordRoutes = {
  discordAuthorize: defineRoute({
    method: 'GET',
    path: '/api/v1/discord/authorize',
    auth: 'bearer',
    summary:
      'The Discord authorisation page to send the buyer to (scope identify, and guilds.join so the platform can add them to servers), with a signed single-use state that expires.',
    tags: ['discord'],
    status: 200,
    query: discordAuthorizeQuery,
    response: z.object({ url: z.string(), expiresAt: isoDateTime }),
  }),
  discordOauthResponse: defineRoute({
    method: 'GET',
    path: '/api/v1/discord/oauth-response',
    auth: 'bearer',
    summary:
      'Completes the link: checks the state, exchanges the code, links the Discord account (409 when it belongs to another account) and starts granting access.',
    tags: ['discord'],
    status: 200,
    query: oauthResponseQuery,
    response: z.object({ discord: discordLink, communities: z.array(community) }),
  }),
  discordUnlink: defineRoute({
    method: 'POST',
    path: '/api/v1/discord/unlink',
    auth: 'bearer',
    summary:
      'Unlinks the Discord account: managed roles are removed, entitlements stay (linking again restores them).',
    tags: ['discord'],
    status: 200,
    response: z.object({ discord: discordLink.nullable() }),
  }),
  userDiscord: defineRoute({
    method: 'GET',
    path: '/api/v1/user/discord',
    auth: 'bearer',
    summary: 'The linked Discord account, or null.',
    tags: ['discord'],
    status: 200,
    response: z.object({ discord: discordLink.nullable() }),
  }),
  userCommunities: defineRoute({
    method: 'GET',
    path: '/api/v1/communities/user',
    auth: 'bearer',
    summary: "The buyer's paid communities with their health, invite and history.",
    tags: ['discord'],
    status: 200,
    response: z.object({ communities: z.array(community) }),
  }),
  reconnectCommunity: defineRoute({
    method: 'PUT',
    path: '/api/v1/communities/reconnect-user/{id}',
    auth: 'bearer',
    summary:
      'Re-checks membership now, grants what is missing and returns the community as `result`, the name the web client reads; `community` carries the same for older clients.',
    tags: ['discord'],
    status: 200,
    params: communityParams,
    response: z.object({ result: community, community }),
  }),
  vendorDiscordInstall: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/discord/install',
    auth: 'bearer',
    summary: "The link that adds the platform's bot to one of the vendor's servers.",
    tags: ['discord'],
    status: 200,
    response: z.object({ url: z.string(), expiresAt: isoDateTime }),
  }),
  vendorDiscordInstalled: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/discord/installed',
    auth: 'bearer',
    summary:
      "Discord's return from the bot install page: checks the state, exchanges the code and records the server Discord names in its answer (never one named in the query) as the vendor's; a server another vendor holds is refused (409).",
    tags: ['discord'],
    status: 200,
    // Discord also sends `guild_id` and `permissions`: hints only, so they are not read.
    query: z.object({
      state: z.string({ error: 'The install state is missing.' }).min(1).max(DISCORD_STATE_MAX),
      code: z.string({ error: 'The Discord code is missing.' }).min(1).max(DISCORD_OAUTH_CODE_MAX),
    }),
    response: z.object({
      server: z.object({ id: z.string(), name: z.string(), iconUrl: z.string().nullable() }),
    }),
  }),
  vendorDiscordRoles: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/discord/servers/{id}/roles',
    auth: 'bearer',
    summary: 'The roles of a server the bot is in, each with why the bot cannot assign it (if so).',
    tags: ['discord'],
    status: 200,
    params: communityParams,
    response: z.object({
      server: z.object({ id: z.string(), name: z.string(), iconUrl: z.string().nullable() }),
      /** What the bot lacks for alert channels (Manage Channels, Send Messages, Embed Links …). */
      notes: z.array(z.string()),
      roles: z.array(
        z.object({ id: z.string(), name: z.string(), problem: z.string().nullable() }),
      ),
    }),
  }),
  vendorBindCommunity: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/discord/bindings',
    auth: 'bearer',
    summary:
      "Binds one of the vendor's community products to a server and roles; refuses roles the bot cannot manage, with the fix in words (422).",
    tags: ['discord'],
    status: 200,
    body: bindCommunityBody,
    response: z.object({ binding: communityBinding }),
  }),
  vendorDiscordServers: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/discord/servers',
    auth: 'bearer',
    summary: 'The servers the vendor added the bot to, newest first.',
    tags: ['discord'],
    status: 200,
    response: z.object({ servers: z.array(vendorDiscordServer) }),
  }),
  vendorCommunityProducts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/discord/products',
    auth: 'bearer',
    summary:
      "The vendor's community products by title, each with its server and roles (null until bound), a page at a time.",
    tags: ['discord'],
    status: 200,
    query: vendorCommunityProductsQuery,
    response: z.object({
      products: z.array(vendorCommunityProduct),
      nextCursor: z.string().nullable(),
    }),
  }),
  vendorUnbindCommunity: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/discord/bindings/{productId}',
    auth: 'bearer',
    summary:
      'Removes a product’s binding: new buyers get no roles until it is bound again; members keep the roles they hold (ADR 045).',
    tags: ['discord'],
    status: 200,
    params: unbindCommunityParams,
    response: z.object({ productId: z.string() }),
  }),
} as const;
