import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  VendorProduct,
  VendorProductInput,
  VendorProductUpdate,
  VendorProductRow,
  VendorProductsQuery,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo } from '../upload.ts';

export interface ProductsPage {
  products: VendorProductRow[];
  nextCursor: string | null;
}

/** The vendor's products, drafts included, most recently edited first. */
export const fetchVendorProducts = requestThunk<VendorProductsQuery, ProductsPage>(
  'vendorProducts/list',
  (query, { api }) => api.call(vendorEndpoints.vendorProducts, { query }),
);

export const fetchVendorProduct = requestThunk<string, VendorProduct>(
  'vendorProducts/read',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.vendorProduct, { params: { id } })).product,
);

export const createVendorProduct = requestThunk<VendorProductInput, VendorProduct>(
  'vendorProducts/create',
  async (body, { api }) => (await api.call(vendorEndpoints.createVendorProduct, { body })).product,
);

export const updateVendorProduct = requestThunk<
  { id: string; body: VendorProductUpdate },
  VendorProduct
>(
  'vendorProducts/update',
  async ({ id, body }, { api }) =>
    (await api.call(vendorEndpoints.updateVendorProduct, { params: { id }, body })).product,
);

export const publishVendorProduct = requestThunk<string, VendorProduct>(
  'vendorProducts/publish',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.publishVendorProduct, { params: { id } })).product,
);

export const unpublishVendorProduct = requestThunk<string, VendorProduct>(
  'vendorProducts/unpublish',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.unpublishVendorProduct, { params: { id } })).product,
);

/** Keeps these pictures, in this order (the first is the cover); the others are deleted. */
export const setVendorProductImages = requestThunk<{ id: string; images: string[] }, VendorProduct>(
  'vendorProducts/setImages',
  async ({ id, images }, { api }) =>
    (await api.call(vendorEndpoints.setVendorProductImages, { params: { id }, body: { images } }))
      .product,
);

export interface ImageUpload {
  id: string;
  file: File;
  /** 0 to 1, as the bytes leave. */
  /** Aborts the upload (the upload control's Cancel). */
  signal?: AbortSignal;
  onProgress?: (share: number) => void;
}

/** Adds a picture, with upload progress (`features/workspace/upload.ts`). */
export const uploadVendorProductImage = requestThunk<ImageUpload, VendorProduct>(
  'vendorProducts/uploadImage',
  async ({ id, file, onProgress, signal }, extra) =>
    (
      await uploadTo<{ product: VendorProduct }>(
        extra,
        vendorEndpoints.addVendorProductImage,
        { id },
        { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
      )
    ).product,
);
