import { createSlice } from '@reduxjs/toolkit';
import type { OwnedDelivery } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';
import { addRequestCases, idle, type RequestState } from '../../lib/request-state.ts';
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
    addRequestCases(b, fetchOwnedDelivery, (s, productId) => (s.owned[productId] ??= idle()));
    addRequestCases(b, downloadVersion, (s, arg) => (s.downloads[arg.versionId] ??= idle()));
    addRequestCases(b, unsubscribeVersionMails, (s) => s.unsubscribe);
    // What a buyer owns is theirs alone: nothing outlives the session.
    b.addCase(sessionEnded, () => initialDeliverablesState);
  },
});
// Loaded with the library and order pages, not with every page (ADR 038).
lazySlice(deliverablesSlice);
