import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Licence } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { fail, idle, start, succeed, type RequestState } from '../../lib/request-state.ts';
import {
  deactivateDevice,
  downloadBuild,
  resetLicenceKey,
  type DeviceRef,
  type LicenceDownload,
} from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/**
 * What the buyer does to one licence on the apps page. The list itself is the user group's `apps`
 * (docs/product.md#request-groups), which takes each answer's licence in place. `licenceId` names the card that is waiting
 * or failed, so its words show there and nowhere else.
 */
export interface LicenceState {
  deactivate: RequestState<Licence> & { target: DeviceRef | null };
  reset: RequestState<Licence> & { licenceId: string | null };
  download: RequestState<LicenceDownload> & { licenceId: string | null };
}

export const initialLicenceState: LicenceState = {
  deactivate: { ...idle<Licence>(), target: null },
  reset: { ...idle<Licence>(), licenceId: null },
  download: { ...idle<LicenceDownload>(), licenceId: null },
};

export const licenceSlice = createSlice({
  name: 'licence',
  initialState: initialLicenceState,
  reducers: {
    /** A confirm step opened or closed: the last outcome's words of that action go. */
    licenceActionCleared: (s, a: PayloadAction<keyof LicenceState>) => {
      s[a.payload] = initialLicenceState[a.payload] as never;
    },
  },
  extraReducers: (b) => {
    b.addCase(deactivateDevice.pending, (s, a) => {
      s.deactivate = { ...idle<Licence>(), target: a.meta.arg };
      start(s.deactivate);
    })
      .addCase(deactivateDevice.fulfilled, (s, a) => succeed(s.deactivate, a.payload))
      .addCase(deactivateDevice.rejected, (s, a) => fail(s.deactivate, a.payload))
      .addCase(resetLicenceKey.pending, (s, a) => {
        s.reset = { ...idle<Licence>(), licenceId: a.meta.arg };
        start(s.reset);
      })
      .addCase(resetLicenceKey.fulfilled, (s, a) => succeed(s.reset, a.payload))
      .addCase(resetLicenceKey.rejected, (s, a) => fail(s.reset, a.payload))
      .addCase(downloadBuild.pending, (s, a) => {
        s.download = { ...idle<LicenceDownload>(), licenceId: a.meta.arg };
        start(s.download);
      })
      .addCase(downloadBuild.fulfilled, (s, a) => succeed(s.download, a.payload))
      .addCase(downloadBuild.rejected, (s, a) => fail(s.download, a.payload))
      // Keys and devices are the signed-in buyer's: nothing outlives the session.
      .addCase(sessionEnded, () => initialLicenceState);
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(licenceSlice);

export const { licenceActionCleared } = licenceSlice.actions;
