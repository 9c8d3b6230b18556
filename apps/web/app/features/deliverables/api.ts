import { screenEndpoints } from '@tradeshelf/contract/client';
import type { OwnedDelivery, ResponseOf } from '@tradeshelf/contract';
import { startDownload } from '../../lib/download.ts';
import { requestThunk } from '../../lib/thunk.ts';

/** A signed link to one version, good for a few minutes. */
export type DeliverableDownload = ResponseOf<typeof screenEndpoints.downloadLink>;

export interface VersionRef {
  productId: string;
  versionId: string;
}

/** What the signed-in owner gets for one product (404 when they do not own it). */
export const fetchOwnedDelivery = requestThunk<string, OwnedDelivery>(
  'deliverables/owned',
  async (productId, { api }) =>
    (await api.call(screenEndpoints.ownedDelivery, { params: { productId } })).delivery,
);

/** Asks for a signed link, then lets the browser fetch it (403 with the reason when refused). */
export const downloadVersion = requestThunk<VersionRef, DeliverableDownload>(
  'deliverables/download',
  async (params, { api }) => {
    const link = await api.call(screenEndpoints.downloadLink, { params });
    startDownload(link.url);
    return link;
  },
);

/** The e-mail's one-click unsubscribe from one product's new-version mails. */
export const unsubscribeVersionMails = requestThunk<string, { message: string }>(
  'deliverables/unsubscribe',
  (token, { api }) => api.call(screenEndpoints.unsubscribeVersionMails, { body: { token } }),
);

/** The owner's own switch for one product's new-version mails (library and order pages). */
export const setVersionMails = requestThunk<
  { productId: string; enabled: boolean },
  { versionMails: boolean; message: string }
>('deliverables/versionMails', ({ productId, enabled }, { api }) =>
  api.call(screenEndpoints.setVersionMails, { params: { productId }, body: { enabled } }),
);
