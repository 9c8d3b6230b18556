import { createSlice } from '@reduxjs/toolkit';
import type { OwnedDelivery } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
import {
  downloadVersion,
  fetchOwnedDelivery,
  unsubscribeVersionMails,
  type DeliverableDownload,
} from './api.ts';

/**
 * What the buyer gets per product (library and order pages show several at once), each download's
 * outcome by version (its words show at its button), and the e-mail's unsubscribe.
 */
export interface DeliverablesState {
  owned: Record<string, RequestState<OwnedDelivery>>;
  downloads: Record<string, RequestState<DeliverableDownload>>;
  unsubscribe: RequestState<{ message: string }>;
}

export const initialDeliverablesState: DeliverablesState = {
  owned: {},
  downloads: {},
  unsubscribe: idle(),
};

export const deliverablesSlice = createSlice({
  name: 'deliverables',
  initialState: initialDeliverablesState,
  reducers: {},
  extraReducers: (b) => {
    b.addCase(fetchOwnedDelivery.pending, (s, a) => {
      start((s.owned[a.meta.arg] ??= idle()));
    })
      .addCase(fetchOwnedDelivery.fulfilled, (s, a) => {
        succeed((s.owned[a.meta.arg] ??= idle()), a.payload);
      })
      .addCase(fetchOwnedDelivery.rejected, (s, a) => {
        fail((s.owned[a.meta.arg] ??= idle()), a.payload);
      })
      .addCase(downloadVersion.pending, (s, a) => {
        start((s.downloads[a.meta.arg.versionId] ??= idle()));
      })
      .addCase(downloadVersion.fulfilled, (s, a) => {
        succeed((s.downloads[a.meta.arg.versionId] ??= idle()), a.payload);
      })
      .addCase(downloadVersion.rejected, (s, a) => {
        fail((s.downloads[a.meta.arg.versionId] ??= idle()), a.payload);
      })
      // What a buyer owns is theirs alone: nothing outlives the session.
      .addCase(sessionEnded, () => initialDeliverablesState);
    addRequestCases(b, unsubscribeVersionMails, (s) => s.unsubscribe);
  },
});
// Loaded with the library and order pages, not with every page (ADR 038).
lazySlice(deliverablesSlice);
