import {
  screenEndpoints,
  type StorefrontImageKind,
  vendorEndpoints,
} from '@tradeshelf/contract/client';
import type {
  BusinessDetails,
  Storefront,
  StorefrontBody,
  VendorPayouts,
  VendorUrlAvailability,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo } from '../upload.ts';

/** The vendor's storefront, or null before the first save. */
export const fetchStorefront = requestThunk<void, Storefront | null>(
  'vendor/storefront',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorStorefront, {})).storefront,
);

export const saveStorefront = requestThunk<StorefrontBody, Storefront>(
  'vendor/saveStorefront',
  async (body, { api }) =>
    (await api.call(vendorEndpoints.saveVendorStorefront, { body })).storefront,
);

export const checkVendorUrl = requestThunk<string, VendorUrlAvailability>(
  'vendor/vendorUrlAvailability',
  (vendorUrl, { api }) => api.call(vendorEndpoints.vendorUrlAvailability, { query: { vendorUrl } }),
);

export interface ImageUpload {
  kind: StorefrontImageKind;
  file: File;
  /** Share of the file sent so far, 0 to 1. */
  /** Aborts the upload (the upload control's Cancel). */
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export const uploadStorefrontImage = requestThunk<ImageUpload, Storefront>(
  'vendor/uploadStorefrontImage',
  async ({ kind, file, onProgress, signal }, extra) =>
    (
      await uploadTo<{ storefront: Storefront }>(
        extra,
        vendorEndpoints.uploadStorefrontImage,
        { kind },
        { file, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) },
      )
    ).storefront,
);

export const removeStorefrontImage = requestThunk<StorefrontImageKind, Storefront>(
  'vendor/removeStorefrontImage',
  async (kind, { api }) =>
    (await api.call(vendorEndpoints.removeStorefrontImage, { params: { kind } })).storefront,
);

/** The payout account's state and the vendor's balances. */
export const fetchPayouts = requestThunk<void, VendorPayouts>(
  'vendor/payouts',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorPayouts, {})).payouts,
);

/** Starts (or continues) onboarding at the payment provider: the page to send the vendor to. */
export const startPayoutOnboarding = requestThunk<string, string>(
  'vendor/connect',
  // Changing the payout account needs a current two-factor code (ADR 054).
  async (twoFactorCode, { api }) =>
    (
      await api.call(screenEndpoints.connectAccount, {
        query: { as: 'vendor' },
        body: twoFactorCode ? { twoFactorCode } : {},
      })
    ).url,
);

/** What the vendor's invoices print as the seller (ADR 060). */
export const fetchBusinessDetails = requestThunk<void, BusinessDetails>(
  'vendor/businessDetails',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorBusinessDetails, {})).business,
);
export const saveBusinessDetails = requestThunk<
  BusinessDetails,
  { message: string; business: BusinessDetails }
>('vendor/saveBusinessDetails', (body, { api }) =>
  api.call(vendorEndpoints.saveVendorBusinessDetails, { body }),
);
