import { screenEndpoints } from '@tradeshelf/contract/client';
import type { Community } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';
import {
  discordAuthCall,
  discordUnlinkCall,
  userDiscordCall,
  type LinkedDiscord,
  type OauthResponseArg,
} from './actions.ts';

export type { LinkedDiscord, OauthResponseArg };
import { leaveFor } from './navigation.ts';

/** The user group (docs/product.md#request-groups): the Discord account linked to the signed-in user, or null. */
export const fetchUserDiscord = requestThunk(
  userDiscordCall,
  async (_, { api }) => (await api.call(screenEndpoints.userDiscord, {})).discord,
);

/**
 * Starts linking: the API answers with Discord's authorise page (scope identify, and guilds.join
 * so the platform can add the buyer to servers; a signed single-use state; the return to
 * /discord-auth-callback), and the browser goes there.
 */
export const authorizeDiscord = requestThunk<{ vendorUrl?: string } | void, { url: string }>(
  'discord/authorize',
  async (arg, { api }) => {
    const vendorUrl = arg ? arg.vendorUrl : undefined;
    const { url } = await api.call(screenEndpoints.discordAuthorize, {
      query: vendorUrl ? { vendorUrl } : {},
    });
    leaveFor(url);
    return { url };
  },
);

/** discord.auth (docs/product.md#discord-sign-in): the authorisation's return, checked and turned into a link. */
export const completeDiscordAuth = requestThunk(discordAuthCall, async (arg, { api, now }) => {
  const linked = await api.call(screenEndpoints.discordOauthResponse, {
    query: {
      code: arg.code,
      state: arg.state,
      ...(arg.vendorUrl ? { vendorUrl: arg.vendorUrl } : {}),
    },
  });
  return { ...linked, receivedAt: now() };
});

/** Roles granted through the account are removed; linking again brings them back. */
export const unlinkDiscord = requestThunk(discordUnlinkCall, async (_, { api }) => {
  await api.call(screenEndpoints.discordUnlink, {});
  return null;
});

export const fetchCommunities = requestThunk<void, Community[]>(
  'discord/communities',
  async (_, { api }) => (await api.call(screenEndpoints.userCommunities, {})).communities,
);

/** Re-checks one community now; the answer is merged into its entry (docs/product.md#discord-group). */
export const reconnectCommunity = requestThunk<string, Community>(
  'discord/reconnect',
  async (id, { api }) =>
    (await api.call(screenEndpoints.reconnectCommunity, { params: { id } })).result,
);
