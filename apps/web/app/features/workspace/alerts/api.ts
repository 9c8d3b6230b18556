import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  Alert,
  AlertDiscord,
  AlertFeed,
  PublishAlertBody,
  VendorAlert,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo } from '../upload.ts';

/** Issue 31, ADR 059: the Alerts screen's calls, one thunk each. */

export const fetchAlertFeeds = requestThunk<void, AlertFeed[]>(
  'vendorAlerts/feeds',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorAlertFeeds, {})).feeds,
);

export const fetchVendorAlerts = requestThunk<
  { productId: string; cursor?: string | undefined },
  { alerts: VendorAlert[]; nextCursor: string | null }
>('vendorAlerts/alerts', ({ productId, cursor }, { api }) =>
  api.call(vendorEndpoints.vendorAlerts, {
    params: { productId },
    query: { limit: 20, ...(cursor ? { cursor } : {}) },
  }),
);

export const publishAlert = requestThunk<
  { productId: string; body: PublishAlertBody },
  { alert: Alert; duplicate: boolean; recipients: number }
>('vendorAlerts/publish', ({ productId, body }, { api }) =>
  api.call(vendorEndpoints.publishAlert, { params: { productId }, body }),
);

export const rotateAlertHook = requestThunk<string, AlertFeed>(
  'vendorAlerts/rotate',
  async (productId, { api }) =>
    (await api.call(vendorEndpoints.rotateAlertHook, { params: { productId } })).feed,
);

export interface AlertImageUpload {
  productId: string;
  file: File;
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** A chart picture for the next alert of this feed, with progress and Cancel. */
export const addAlertImage = requestThunk<AlertImageUpload, { imageId: string; imageUrl: string }>(
  'vendorAlerts/image',
  ({ productId, file, onProgress, signal }, extra) =>
    uploadTo<{ imageId: string; imageUrl: string }>(
      extra,
      vendorEndpoints.addAlertImage,
      { productId },
      { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
    ),
);

/** The feed's Discord channel (ADR 059): read with Discord's answer on who can read it. */
export const fetchAlertDiscord = requestThunk<string, AlertDiscord>(
  'vendorAlerts/discord',
  async (productId, { api }) =>
    (await api.call(vendorEndpoints.vendorAlertDiscord, { params: { productId } })).discord,
);

/** Creates `#<feed-name>-alerts` (channelId null) or takes an existing channel of the server. */
export const setAlertDiscord = requestThunk<
  { productId: string; channelId: string | null },
  AlertDiscord
>(
  'vendorAlerts/setDiscord',
  async ({ productId, channelId }, { api }) =>
    (
      await api.call(vendorEndpoints.setAlertDiscord, {
        params: { productId },
        body: { channelId },
      })
    ).discord,
);

export const removeAlertDiscord = requestThunk<string, AlertDiscord>(
  'vendorAlerts/removeDiscord',
  async (productId, { api }) =>
    (await api.call(vendorEndpoints.removeAlertDiscord, { params: { productId } })).discord,
);
