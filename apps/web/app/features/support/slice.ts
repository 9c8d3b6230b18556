import { createSlice } from '@reduxjs/toolkit';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { addRequestCases, idle, type RequestState } from '../../lib/request-state.ts';
import { sendContact } from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/** The support group (docs/product.md#request-groups). */
export interface SupportState {
  contact: RequestState<{ message: string }>;
}

export const initialSupportState: SupportState = { contact: idle() };

export const supportSlice = createSlice({
  name: 'support',
  initialState: initialSupportState,
  reducers: {
    /** Back to an empty form (another message, or leaving the page). */
    resetContact: (s) => {
      s.contact = idle();
    },
  },
  extraReducers: (b) => {
    addRequestCases(b, sendContact, (s) => s.contact);
    b.addCase(hydrate, (s, a) => mergeState(s, a.payload.support));
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(supportSlice);

export const { resetContact } = supportSlice.actions;
