import { endpoints } from '@tradeshelf/contract/client';
import type { User, VendorRoleResponse } from '@tradeshelf/contract';
import { writeVendorCookies } from '../../lib/cookies.ts';
import { requestThunk } from '../../lib/thunk.ts';

export const fetchProfile = requestThunk<void, User>(
  'user/profile',
  async (_, { api }) => (await api.call(endpoints.getProfile, {})).user,
);

export const updateProfile = requestThunk<{ username: string }, User>(
  'user/updateProfile',
  async (body, { api }) => (await api.call(endpoints.updateProfile, { body })).user,
);

/** docs/product.md#vendor-cookies: the vendor token, its expiry and the user details go to the vendor-area cookies. */
export const addVendorRole = requestThunk<void, VendorRoleResponse>(
  'user/addVendorRole',
  async (_, { api, now }) => {
    const res = await api.call(endpoints.addVendorRole, {});
    writeVendorCookies(res, now());
    return res;
  },
);

export const uploadAvatar = requestThunk<File, { url: string; user: User }>(
  'user/uploadAvatar',
  (file, { api }) => {
    const form = new FormData();
    form.append('file', file);
    return api.call(endpoints.imageUpload, { query: { category: 'avatar' } }, { formData: form });
  },
);

/** A link to the payment provider's page where the buyer manages this vendor's subscriptions. */
export const openCustomerPortal = requestThunk<string, { url: string }>(
  'user/portal',
  async (vendorUrl, { api }) =>
    (await api.call(endpoints.customerPortal, { query: { vendorUrl } })).session,
);
