import { createSlice } from '@reduxjs/toolkit';
import type { Membership, SavedSearch } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
import {
  deleteSavedSearch,
  fetchMembership,
  fetchSavedSearches,
  saveSearch,
  unsubscribeAlerts,
  updateSavedSearch,
  type SavedSearchPage,
} from './api.ts';

/** The buyer's Tradeshelf plan (ADR 027) and their saved searches. */
export interface MembershipState {
  /** `data` null with `success`: signed in without a plan. */
  status: RequestState<Membership | null>;
  savedSearches: RequestState<SavedSearchPage>;
  /** Saving the current search from /search. */
  save: RequestState<SavedSearch>;
  /** Rename, alerts switch or delete on the account page (one at a time). */
  edit: RequestState<string>;
  /** Alerts turned off from an e-mail's link. */
  unsubscribe: RequestState<{ message: string; name: string }>;
}

export const initialMembershipState: MembershipState = {
  status: idle(),
  savedSearches: idle(),
  save: idle(),
  edit: idle(),
  unsubscribe: idle(),
};

const replace = (page: SavedSearchPage | null, item: SavedSearch) => {
  if (!page) return;
  page.savedSearches = page.savedSearches.map((s) => (s.id === item.id ? item : s));
};

export const membershipSlice = createSlice({
  name: 'membership',
  initialState: initialMembershipState,
  reducers: {
    resetSave: (s) => {
      s.save = idle();
    },
  },
  extraReducers: (b) => {
    addRequestCases(b, fetchMembership, (s) => s.status);
    addRequestCases(b, saveSearch, (s) => s.save);
    addRequestCases(b, unsubscribeAlerts, (s) => s.unsubscribe);
    b.addCase(fetchSavedSearches.pending, (s) => start(s.savedSearches))
      .addCase(fetchSavedSearches.fulfilled, (s, a) => {
        const more = a.meta.arg?.cursor && s.savedSearches.data;
        succeed(
          s.savedSearches,
          more
            ? {
                ...a.payload,
                savedSearches: [...s.savedSearches.data!.savedSearches, ...a.payload.savedSearches],
              }
            : a.payload,
        );
      })
      .addCase(fetchSavedSearches.rejected, (s, a) => fail(s.savedSearches, a.payload))
      .addCase(updateSavedSearch.pending, (s, a) => {
        start(s.edit);
        s.edit.data = a.meta.arg.id;
      })
      .addCase(updateSavedSearch.fulfilled, (s, a) => {
        succeed(s.edit, a.payload.id);
        replace(s.savedSearches.data, a.payload);
      })
      .addCase(updateSavedSearch.rejected, (s, a) => fail(s.edit, a.payload))
      .addCase(deleteSavedSearch.pending, (s, a) => {
        start(s.edit);
        s.edit.data = a.meta.arg;
      })
      .addCase(deleteSavedSearch.fulfilled, (s, a) => {
        succeed(s.edit, a.payload);
        const page = s.savedSearches.data;
        if (page) {
          page.savedSearches = page.savedSearches.filter((x) => x.id !== a.payload);
          page.count = Math.max(0, page.count - 1);
        }
      })
      .addCase(deleteSavedSearch.rejected, (s, a) => fail(s.edit, a.payload))
      .addCase(sessionEnded, () => initialMembershipState);
  },
});

export const { resetSave } = membershipSlice.actions;
