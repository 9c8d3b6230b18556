import { createAsyncThunk } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import type { ApiError, User, VendorRoleResponse } from '@tradeshelf/contract';
import { writeVendorCookies } from '../../lib/cookies.ts';
import { toApiError } from '../../lib/http.ts';
import type { ThunkExtra } from '../../store.ts';

type Config = { extra: ThunkExtra; rejectValue: ApiError };

export const fetchProfile = createAsyncThunk<User, void, Config>(
  'user/profile',
  async (_, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.getProfile, {})).user;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

export const updateProfile = createAsyncThunk<User, { username: string }, Config>(
  'user/updateProfile',
  async (body, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.updateProfile, { body })).user;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

/** SPEC §6: the vendor token, its expiry and the user details go to the vendor-area cookies. */
export const addVendorRole = createAsyncThunk<VendorRoleResponse, void, Config>(
  'user/addVendorRole',
  async (_, { extra, rejectWithValue }) => {
    try {
      const res = await extra.api.call(endpoints.addVendorRole, {});
      writeVendorCookies(res, extra.now());
      return res;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

export const uploadAvatar = createAsyncThunk<{ url: string; user: User }, File, Config>(
  'user/uploadAvatar',
  async (file, { extra, rejectWithValue }) => {
    try {
      const form = new FormData();
      form.append('file', file);
      return await extra.api.call(
        endpoints.imageUpload,
        { query: { category: 'avatar' } },
        { formData: form },
      );
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);

/** A link to the payment provider's page where the buyer manages this vendor's subscriptions. */
export const openCustomerPortal = createAsyncThunk<{ url: string }, string, Config>(
  'user/portal',
  async (vendorUrl, { extra, rejectWithValue }) => {
    try {
      return (await extra.api.call(endpoints.customerPortal, { query: { vendorUrl } })).session;
    } catch (err) {
      return rejectWithValue(toApiError(err));
    }
  },
);
