import type { Community, DiscordLink } from '@tradeshelf/contract';
import { thunkActions } from '../../lib/thunk.ts';

/** What the OAuth2 return carries to the API (docs/product.md#discord-sign-in: code, the signed state, vendorUrl). */
export interface OauthResponseArg {
  code: string;
  state: string;
  vendorUrl?: string;
}

/** The linked account and the buyer's communities as they stand right after linking. */
export interface LinkedDiscord {
  discord: DiscordLink;
  communities: Community[];
  /** When the answer arrived (ms, the store's clock): the library polls for a while after. */
  receivedAt: number;
}

// The Discord calls' actions, which the user slice (loaded by every page) reduces: the calls themselves
// and their routes load with the screens that make them (api.ts).

/** The user group (docs/product.md#request-groups): the Discord account linked to the signed-in user, or null. */
export const userDiscordCall = thunkActions<void, DiscordLink | null>('user/discord');

/** discord.auth (docs/product.md#discord-sign-in): the authorisation's return, turned into a link. */
export const discordAuthCall = thunkActions<OauthResponseArg, LinkedDiscord>('discord/auth');

/** Roles granted through the account are removed; linking again brings them back. */
export const discordUnlinkCall = thunkActions<void, null>('discord/unlink');
