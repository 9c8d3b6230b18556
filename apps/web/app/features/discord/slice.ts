import { createSlice } from '@reduxjs/toolkit';
import type { Community } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
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
    b.addCase(completeDiscordAuth.pending, (s, a) => {
      s.auth.data = null;
      s.auth.state = a.meta.arg.state;
      start(s.auth);
    })
      .addCase(completeDiscordAuth.fulfilled, (s, a) => {
        succeed(s.auth, a.payload);
        // The answer carries the communities as they stand: the library starts from them.
        succeed(s.communities, a.payload.communities);
        s.linkedAt = a.payload.receivedAt;
      })
      .addCase(completeDiscordAuth.rejected, (s, a) => fail(s.auth, a.payload))
      // Polling keeps the cards on screen while it asks again.
      .addCase(fetchCommunities.pending, (s) => start(s.communities))
      .addCase(fetchCommunities.fulfilled, (s, a) => succeed(s.communities, a.payload))
      .addCase(fetchCommunities.rejected, (s, a) => fail(s.communities, a.payload))
      .addCase(reconnectCommunity.pending, (s, a) => {
        s.reconnect = { ...idle<Community>(), id: a.meta.arg };
        start(s.reconnect);
      })
      .addCase(reconnectCommunity.fulfilled, (s, a) => {
        succeed(s.reconnect, a.payload);
        s.communities.data = mergeCommunity(s.communities.data, a.payload);
      })
      .addCase(reconnectCommunity.rejected, (s, a) => fail(s.reconnect, a.payload))
      .addCase(unlinkDiscord.pending, (s) => start(s.unlink))
      .addCase(unlinkDiscord.fulfilled, (s) => {
        succeed(s.unlink, null);
        s.linkedAt = null;
      })
      .addCase(unlinkDiscord.rejected, (s, a) => fail(s.unlink, a.payload))
      // Everything here is the signed-in buyer's: nothing outlives the session.
      .addCase(sessionEnded, () => initialDiscordState);
  },
});

export const { authorizeReset } = discordSlice.actions;

// Loaded with the screens that show Discord access, not with every page (ADR 038).
lazySlice(discordSlice);
