import { endpoints } from '@tradeshelf/contract/client';
import type {
  CreateSavedSearchRequest,
  Membership,
  SavedSearch,
  UpdateSavedSearchRequest,
} from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

export interface SavedSearchPage {
  savedSearches: SavedSearch[];
  nextCursor: string | null;
  count: number;
  limit: number;
}

export const fetchMembership = requestThunk<void, Membership | null>(
  'membership/status',
  async (_, { api }) => (await api.call(endpoints.membership, {})).membership,
);

/** A page of saved searches; with `cursor`, the next page (appended by the reducer). */
export const fetchSavedSearches = requestThunk<{ cursor?: string } | undefined, SavedSearchPage>(
  'membership/savedSearches',
  (arg, { api }) =>
    api.call(endpoints.listSavedSearches, {
      query: { limit: 10, ...(arg?.cursor ? { cursor: arg.cursor } : {}) },
    }),
);

export const saveSearch = requestThunk<CreateSavedSearchRequest, SavedSearch>(
  'membership/saveSearch',
  async (body, { api }) => (await api.call(endpoints.createSavedSearch, { body })).savedSearch,
);

export const updateSavedSearch = requestThunk<
  { id: string; body: UpdateSavedSearchRequest },
  SavedSearch
>(
  'membership/updateSavedSearch',
  async ({ id, body }, { api }) =>
    (await api.call(endpoints.updateSavedSearch, { params: { id }, body })).savedSearch,
);

export const deleteSavedSearch = requestThunk<string, string>(
  'membership/deleteSavedSearch',
  async (id, { api }) => {
    await api.call(endpoints.deleteSavedSearch, { params: { id } });
    return id;
  },
);

/** From the link in an alert e-mail: a public call, the signed token is the permission. */
export const unsubscribeAlerts = requestThunk<string, { message: string; name: string }>(
  'membership/unsubscribe',
  (token, { api }) => api.call(endpoints.unsubscribeSavedSearch, { body: { token } }),
);
