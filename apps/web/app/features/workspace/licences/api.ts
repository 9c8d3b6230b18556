import type {
  LicencePolicyBody,
  SigningKey,
  VendorLicenceApp,
  VendorLicencePolicy,
} from '@tradeshelf/contract';
import { vendorEndpoints as endpoints } from '@tradeshelf/contract/client';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo, type FileUpload } from '../upload.ts';

// One thunk per call of the licence policy screens (ADR 039).

export interface LicenceAppsPage {
  apps: VendorLicenceApp[];
  nextCursor: string | null;
}

export const fetchLicenceApps = requestThunk<{ cursor?: string }, LicenceAppsPage>(
  'vendorLicences/list',
  (arg, { api }) =>
    api.call(endpoints.vendorLicenceApps, {
      query: { limit: 20, ...(arg.cursor ? { cursor: arg.cursor } : {}) },
    }),
);

export const fetchLicencePolicy = requestThunk<string, VendorLicencePolicy>(
  'vendorLicences/policy',
  async (productId, { api }) =>
    (await api.call(endpoints.vendorLicencePolicy, { params: { productId } })).policy,
);

export const saveLicencePolicy = requestThunk<
  { productId: string; body: LicencePolicyBody },
  VendorLicencePolicy
>(
  'vendorLicences/save',
  async ({ productId, body }, { api }) =>
    (await api.call(endpoints.updateLicencePolicy, { params: { productId }, body })).policy,
);

export const rotateSigningKey = requestThunk<void, SigningKey[]>(
  'vendorLicences/rotate',
  async (_arg, { api }) => (await api.call(endpoints.rotateLicenceKey, {})).keys,
);

export const uploadBuild = requestThunk<
  { productId: string; version: string } & FileUpload,
  VendorLicencePolicy
>(
  'vendorLicences/uploadBuild',
  async ({ productId, version, ...upload }, extra) =>
    (
      await uploadTo<{ policy: VendorLicencePolicy }>(
        extra,
        endpoints.uploadLicenceBuild,
        { productId },
        upload,
        { version },
      )
    ).policy,
);
