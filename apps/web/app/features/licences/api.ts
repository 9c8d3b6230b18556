import { screenEndpoints } from '@tradeshelf/contract/client';
import type { ResponseOf } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';
import { appsCall, deactivateDeviceCall, resetLicenceKeyCall } from './actions.ts';
import { startDownload } from './navigation.ts';

/** What the download call answers: a signed, expiring link and the build it points at. */
export type LicenceDownload = ResponseOf<typeof screenEndpoints.licenceDownload>;

/** One of the buyer's devices on one of their licences. */
export type DeviceRef = NonNullable<(typeof deactivateDeviceCall)['arg']>;

/** user.apps (`GET /api/v1/licence`, docs/product.md#calls): every licence the buyer holds, newest first. */
export const fetchApps = requestThunk(
  appsCall,
  async (_, { api }) => (await api.call(screenEndpoints.licences, {})).licences,
);

/** Frees a device's slot; answers with the licence as it now stands. */
export const deactivateDevice = requestThunk(
  deactivateDeviceCall,
  async ({ licenceId, activationId }, { api }) =>
    (
      await api.call(screenEndpoints.deactivateLicenceActivation, {
        params: { id: licenceId, activationId },
      })
    ).licence,
);

/** A new key; the old one stops working and every activation is removed (the API's rule). */
export const resetLicenceKey = requestThunk(
  resetLicenceKeyCall,
  async (id, { api }) =>
    (await api.call(screenEndpoints.resetLicenceKey, { params: { id } })).licence,
);

/** Asks for a signed link to the app's current build, then lets the browser download it. */
export const downloadBuild = requestThunk<string, LicenceDownload>(
  'licence/download',
  async (id, { api }) => {
    const link = await api.call(screenEndpoints.licenceDownload, { params: { id } });
    startDownload(link.url);
    return link;
  },
);
