// A product's deliverables as its vendor manages them (issue 29): versions per platform, the set-up
// guide and the updates promise. One thunk per call; every answer is the delivery as it now stands.
import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  DeliverablePlatform,
  DeliverySettingsBody,
  VendorDelivery,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo } from '../upload.ts';

export interface VersionRef {
  productId: string;
  versionId: string;
}

/** What a change answers: the delivery after it, and the server's words when it has some. */
export interface DeliveryChange {
  delivery: VendorDelivery;
  message?: string;
  versionId?: string;
}

export const fetchVendorDelivery = requestThunk<string, VendorDelivery>(
  'vendorDelivery/read',
  async (productId, { api }) =>
    (await api.call(vendorEndpoints.vendorDelivery, { params: { productId } })).delivery,
);

export const saveDeliverySettings = requestThunk<
  { productId: string; body: DeliverySettingsBody },
  DeliveryChange
>('vendorDelivery/saveSettings', ({ productId, body }, { api }) =>
  api.call(vendorEndpoints.saveDeliverySettings, { params: { productId }, body }),
);

export interface DeliverableUpload {
  productId: string;
  platform: DeliverablePlatform;
  version: string;
  file: File;
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** A file as a draft version, with progress and Cancel (`features/workspace/upload.ts`). */
export const uploadDeliverable = requestThunk<DeliverableUpload, DeliveryChange>(
  'vendorDelivery/upload',
  ({ productId, platform, version, file, onProgress, signal }, extra) =>
    uploadTo<DeliveryChange>(
      extra,
      vendorEndpoints.uploadDeliverable,
      { productId },
      { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
      { platform, version },
    ),
);

export interface GuideImageUpload {
  productId: string;
  file: File;
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

export interface GuideImage {
  url: string;
  width: number;
  height: number;
  markdown: string;
}

/** A picture for the set-up guide; answers the Markdown that shows it. */
export const addGuideImage = requestThunk<GuideImageUpload, GuideImage>(
  'vendorDelivery/guideImage',
  ({ productId, file, onProgress, signal }, extra) =>
    uploadTo<GuideImage>(
      extra,
      vendorEndpoints.addGuideImage,
      { productId },
      { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
    ),
);

/** A link as a draft version (thinkorswim shares studies as links). */
export const addDeliverableLink = requestThunk<
  { productId: string; platform: DeliverablePlatform; version: string; url: string },
  DeliveryChange
>('vendorDelivery/addLink', ({ productId, ...body }, { api }) =>
  api.call(vendorEndpoints.addDeliverableLink, { params: { productId }, body }),
);

export const publishDeliverable = requestThunk<VersionRef & { notes: string }, DeliveryChange>(
  'vendorDelivery/publish',
  ({ productId, versionId, notes }, { api }) =>
    api.call(vendorEndpoints.publishDeliverable, {
      params: { productId, versionId },
      body: { notes },
    }),
);

export const makeDeliverableCurrent = requestThunk<VersionRef, DeliveryChange>(
  'vendorDelivery/makeCurrent',
  (params, { api }) => api.call(vendorEndpoints.makeDeliverableCurrent, { params }),
);

export const deleteDeliverableDraft = requestThunk<VersionRef, DeliveryChange>(
  'vendorDelivery/deleteDraft',
  (params, { api }) => api.call(vendorEndpoints.deleteDeliverableDraft, { params }),
);
