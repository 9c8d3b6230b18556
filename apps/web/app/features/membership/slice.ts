import { createSlice } from '@reduxjs/toolkit';
import type { Membership, SavedSearch } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { addRequestCases, idle, type RequestState } from '../../lib/request-state.ts';
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
    addRequestCases(b, fetchSavedSearches, (s) => s.savedSearches, {
      map: (page, s, arg) => {
        const earlier = arg?.cursor && s.savedSearches.data;
        return earlier
          ? { ...page, savedSearches: [...earlier.savedSearches, ...page.savedSearches] }
          : page;
      },
    });
    // The row being edited is known from the start (its id), so only it shows busy.
    addRequestCases(b, updateSavedSearch, (s) => s.edit, {
      started: (s, arg) => {
        s.edit.data = arg.id;
      },
      map: (saved) => saved.id,
      done: (s, saved) => replace(s.savedSearches.data, saved),
    });
    addRequestCases(b, deleteSavedSearch, (s) => s.edit, {
      started: (s, id) => {
        s.edit.data = id;
      },
      done: (s, id) => {
        const page = s.savedSearches.data;
        if (page) {
          page.savedSearches = page.savedSearches.filter((x) => x.id !== id);
          page.count = Math.max(0, page.count - 1);
        }
      },
    });
    b.addCase(sessionEnded, () => initialMembershipState);
  },
});

export const { resetSave } = membershipSlice.actions;
