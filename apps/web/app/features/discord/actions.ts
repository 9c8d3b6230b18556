import type { DiscordLink } from '@tradeshelf/contract';
import { thunkActions } from '../../lib/thunk.ts';
import type { LinkedDiscord, OauthResponseArg } from './api.ts';

// The Discord calls' actions, which the user slice (loaded by every page) reduces: the calls themselves
// and their routes load with the screens that make them (api.ts).

/** The user group (docs/product.md#request-groups): the Discord account linked to the signed-in user, or null. */
export const userDiscordCall = thunkActions<void, DiscordLink | null>('user/discord');

/** discord.auth (docs/product.md#discord-sign-in): the authorisation's return, turned into a link. */
export const discordAuthCall = thunkActions<OauthResponseArg, LinkedDiscord>('discord/auth');

/** Roles granted through the account are removed; linking again brings them back. */
export const discordUnlinkCall = thunkActions<void, null>('discord/unlink');
