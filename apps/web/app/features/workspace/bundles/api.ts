import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  VendorBundle,
  VendorBundleInput,
  VendorBundleProduct,
  VendorBundleProductsQuery,
  VendorBundleRow,
  VendorBundlesQuery,
  VendorBundleUpdate,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo } from '../upload.ts';

export interface BundlesPage {
  bundles: VendorBundleRow[];
  nextCursor: string | null;
}

/** The vendor's bundles, drafts included, most recently edited first. */
export const fetchVendorBundles = requestThunk<VendorBundlesQuery, BundlesPage>(
  'vendorBundles/list',
  (query, { api }) => api.call(vendorEndpoints.vendorBundles, { query }),
);

/** A page of the products a bundle can hold (as `usePaged` reads pages: `items`). */
export const fetchBundleProductChoices = requestThunk<
  VendorBundleProductsQuery,
  { items: VendorBundleProduct[]; nextCursor: string | null }
>('vendorBundles/productChoices', async (query, { api }) => {
  const page = await api.call(vendorEndpoints.vendorBundleProducts, { query });
  return { items: page.products, nextCursor: page.nextCursor };
});

export const fetchVendorBundle = requestThunk<string, VendorBundle>(
  'vendorBundles/read',
  async (id, { api }) => (await api.call(vendorEndpoints.vendorBundle, { params: { id } })).bundle,
);

export const createVendorBundle = requestThunk<VendorBundleInput, VendorBundle>(
  'vendorBundles/create',
  async (body, { api }) => (await api.call(vendorEndpoints.createVendorBundle, { body })).bundle,
);

export const updateVendorBundle = requestThunk<
  { id: string; body: VendorBundleUpdate },
  VendorBundle
>(
  'vendorBundles/update',
  async ({ id, body }, { api }) =>
    (await api.call(vendorEndpoints.updateVendorBundle, { params: { id }, body })).bundle,
);

export const publishVendorBundle = requestThunk<
  { id: string; confirmPriceAboveValue: boolean },
  VendorBundle
>(
  'vendorBundles/publish',
  async ({ id, confirmPriceAboveValue }, { api }) =>
    (
      await api.call(vendorEndpoints.publishVendorBundle, {
        params: { id },
        body: { confirmPriceAboveValue },
      })
    ).bundle,
);

export const unpublishVendorBundle = requestThunk<string, VendorBundle>(
  'vendorBundles/unpublish',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.unpublishVendorBundle, { params: { id } })).bundle,
);

export const removeVendorBundleCover = requestThunk<string, VendorBundle>(
  'vendorBundles/removeCover',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.removeVendorBundleCover, { params: { id } })).bundle,
);

export interface CoverUpload {
  id: string;
  file: File;
  /** 0 to 1, as the bytes leave. */
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** Sets the cover, with upload progress (`features/workspace/upload.ts`). */
export const uploadVendorBundleCover = requestThunk<CoverUpload, VendorBundle>(
  'vendorBundles/uploadCover',
  async ({ id, file, onProgress, signal }, extra) =>
    (
      await uploadTo<{ bundle: VendorBundle }>(
        extra,
        vendorEndpoints.uploadVendorBundleCover,
        { id },
        { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
      )
    ).bundle,
);
