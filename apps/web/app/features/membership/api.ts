import { createAsyncThunk } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import type {
  ApiError,
  CreateSavedSearchRequest,
  Membership,
  SavedSearch,
  UpdateSavedSearchRequest,
} from '@tradeshelf/contract';
import { toApiError } from '../../lib/http.ts';
import type { ThunkExtra } from '../../store.ts';

type Config = { extra: ThunkExtra; rejectValue: ApiError };

export interface SavedSearchPage {
  savedSearches: SavedSearch[];
  nextCursor: string | null;
  count: number;
  limit: number;
}

export const fetchMembership = createAsyncThunk<Membership | null, void, Config>(
  'membership/status',
  async (_, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.membership, {})).membership;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

/** A page of saved searches; with `cursor`, the next page (appended by the reducer). */
export const fetchSavedSearches = createAsyncThunk<
  SavedSearchPage,
  { cursor?: string } | undefined,
  Config
>('membership/savedSearches', async (arg, { extra, rejectWithValue }) => {
  try {
    return await extra.api.call(endpoints.listSavedSearches, {
      query: { limit: 10, ...(arg?.cursor ? { cursor: arg.cursor } : {}) },
    });
  } catch (err) {
    return rejectWithValue(toApiError(err));
  }
});

export const saveSearch = createAsyncThunk<SavedSearch, CreateSavedSearchRequest, Config>(
  'membership/saveSearch',
  async (body, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.createSavedSearch, { body })).savedSearch;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

export const updateSavedSearch = createAsyncThunk<
  SavedSearch,
  { id: string; body: UpdateSavedSearchRequest },
  Config
>('membership/updateSavedSearch', async ({ id, body }, { extra, rejectWithValue }) => {
  try {
    return (await extra.api.call(endpoints.updateSavedSearch, { params: { id }, body }))
      .savedSearch;
  } catch (err) {
    return rejectWithValue(toApiError(err));
  }
});

export const deleteSavedSearch = createAsyncThunk<string, string, Config>(
  'membership/deleteSavedSearch',
  async (id, { extra, rejectWithValue }) => {
    try {
      await extra.api.call(endpoints.deleteSavedSearch, { params: { id } });
      return id;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

/** From the link in an alert e-mail: a public call, the signed token is the permission. */
export const unsubscribeAlerts = createAsyncThunk<
  { message: string; name: string },
  string,
  Config
>('membership/unsubscribe', async (token, { extra, rejectWithValue }) => {
  try {
    return await extra.api.call(endpoints.unsubscribeSavedSearch, { body: { token } });
  } catch (err) {
    return rejectWithValue(toApiError(err));
  }
});
