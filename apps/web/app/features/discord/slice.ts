import { createSlice } from '@reduxjs/toolkit';
import type { Community } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { addRequestCases, idle, succeed, type RequestState } from '../../lib/request-state.ts';
import {
  authorizeDiscord,
  completeDiscordAuth,
  fetchCommunities,
  reconnectCommunity,
  unlinkDiscord,
  type LinkedDiscord,
} from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/**
 * The discord group (docs/product.md#request-groups): auth (the authorisation's return), unlink, communities (each with `_id`),
 * reconnect; plus the authorise link being fetched. The linked account itself is the user group's
 * `discord`.
 */
export interface DiscordState {
  /** The authorise page's URL, fetched before the browser leaves for it. */
  authorize: RequestState<{ url: string }>;
  /** The OAuth2 return; `state` names the one sent, so one return is sent once (strict effects). */
  auth: RequestState<LinkedDiscord> & { state: string | null };
  unlink: RequestState<null>;
  communities: RequestState<Community[]>;
  /** One community re-checked at a time; `id` says which card is waiting or failed. */
  reconnect: RequestState<Community> & { id: string | null };
  /** When the account was linked in this visit (ms): the library polls until access lands. */
  linkedAt: number | null;
}

export const initialDiscordState: DiscordState = {
  authorize: idle(),
  auth: { ...idle<LinkedDiscord>(), state: null },
  unlink: idle(),
  communities: idle(),
  reconnect: { ...idle<Community>(), id: null },
  linkedAt: null,
};

/** docs/product.md#discord-group: the reconnect's answer is merged into the community with the same `_id`. */
export function mergeCommunity(list: Community[] | null, community: Community): Community[] {
  if (!list) return [community];
  const i = list.findIndex((c) => c._id === community._id);
  if (i < 0) return [...list, community];
  return list.map((c, j) => (j === i ? { ...c, ...community } : c));
}

export const discordSlice = createSlice({
  name: 'discord',
  initialState: initialDiscordState,
  reducers: {
    /** The page came back from the browser's cache (Back from Discord): the buttons work again. */
    authorizeReset: (s) => {
      s.authorize = idle();
    },
  },
  extraReducers: (b) => {
    addRequestCases(b, authorizeDiscord, (s) => s.authorize);
    addRequestCases(b, completeDiscordAuth, (s) => s.auth, {
      started: (s, arg) => {
        s.auth.data = null;
        s.auth.state = arg.state;
      },
      done: (s, linked) => {
        // The answer carries the communities as they stand: the library starts from them.
        succeed(s.communities, linked.communities);
        s.linkedAt = linked.receivedAt;
      },
    });
    // Polling keeps the cards on screen while it asks again.
    addRequestCases(b, fetchCommunities, (s) => s.communities);
    addRequestCases(b, reconnectCommunity, (s) => s.reconnect, {
      started: (s, id) => {
        s.reconnect = { ...idle<Community>(), id };
      },
      done: (s, community) => {
        s.communities.data = mergeCommunity(s.communities.data, community);
      },
    });
    addRequestCases(b, unlinkDiscord, (s) => s.unlink, {
      map: () => null,
      done: (s) => {
        s.linkedAt = null;
      },
    });
    // Everything here is the signed-in buyer's: nothing outlives the session.
    b.addCase(sessionEnded, () => initialDiscordState);
  },
});

export const { authorizeReset } = discordSlice.actions;

// Loaded with the screens that show Discord access, not with every page (ADR 038).
lazySlice(discordSlice);
