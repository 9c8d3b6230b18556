import { alertEndpoints as endpoints } from '@tradeshelf/contract/client';
import type { AlertChannels, SetAlertChannelsBody } from '@tradeshelf/contract';
import type { ResponseOf } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

/** Issue 31, ADR 059: the buyer's alert calls, one thunk each. */

export type AlertFeedPage = ResponseOf<typeof endpoints.alertFeed>;
export type HeldFeeds = ResponseOf<typeof endpoints.myAlertFeeds>['feeds'];

export const fetchHeldFeeds = requestThunk<void, HeldFeeds>(
  'alerts/held',
  async (_arg, { api }) => (await api.call(endpoints.myAlertFeeds, {})).feeds,
);

export const fetchAlertFeed = requestThunk<
  { productId: string; cursor?: string | undefined },
  AlertFeedPage
>('alerts/feed', ({ productId, cursor }, { api }) =>
  api.call(endpoints.alertFeed, {
    params: { productId },
    query: { limit: 20, ...(cursor ? { cursor } : {}) },
  }),
);

export const saveAlertChannels = requestThunk<
  { productId: string; body: SetAlertChannelsBody },
  AlertChannels
>(
  'alerts/channels',
  async ({ productId, body }, { api }) =>
    (await api.call(endpoints.setAlertChannels, { params: { productId }, body })).channels,
);

export const retryAlertWebhook = requestThunk<string, { channels: AlertChannels; resent: number }>(
  'alerts/retry',
  (productId, { api }) => api.call(endpoints.retryAlertWebhook, { params: { productId } }),
);

/** The access token for the live stream (a fetch of our own: the client reads JSON only). */
export const streamToken = requestThunk<void, string | null>(
  'alerts/streamToken',
  async (_arg, { session }) => (await session.current())?.accessToken ?? null,
);
