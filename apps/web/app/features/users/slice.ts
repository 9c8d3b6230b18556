import { createSlice } from '@reduxjs/toolkit';
import { usersMessages } from '@tradeshelf/contract/client';
import type {
  ApiError,
  DiscordLink,
  Licence,
  User,
  VendorRoleResponse,
} from '@tradeshelf/contract';
import { discordAuthCall, discordUnlinkCall, userDiscordCall } from '../discord/index.ts';
import { appsCall, deactivateDeviceCall, resetLicenceKeyCall } from '../licences/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import {
  fail,
  idle,
  start,
  succeed,
  type RequestState,
  type RequestStatus,
} from '../../lib/request-state.ts';
import {
  addVendorRole,
  fetchProfile,
  openCustomerPortal,
  updateProfile,
  uploadAvatar,
} from './api.ts';

/** The user group (docs/product.md#request-groups). */
export interface UserState {
  profile: RequestState<User>;
  /**
   * docs/product.md#user-group: `loading` while saving; on the answer the status is reset (back to idle), loading
   * stops and `message` holds "Username updated successfully" or the error text; `outcome` says
   * which, until the message has been shown (`clearUpdateStatus`).
   */
  updateProfile: UpdateProfileState;
  addVendorRole: RequestState<VendorRoleResponse>;
  avatar: RequestState<{ url: string }>;
  /** The linked Discord account; `data` null with `success` when none is linked. */
  discord: RequestState<DiscordLink | null>;
  /** The payment provider's customer portal session (manage subscriptions). */
  portal: RequestState<{ url: string }>;
  /** The buyer's app licences (the apps page); a device or key change replaces its licence. */
  apps: RequestState<Licence[]>;
}

export interface UpdateProfileState {
  status: RequestStatus;
  loading: boolean;
  data: User | null;
  error: ApiError | null;
  message: string | null;
  outcome: 'success' | 'failure' | null;
}

const updateIdle = (): UpdateProfileState => ({
  status: 'idle',
  loading: false,
  data: null,
  error: null,
  message: null,
  outcome: null,
});

export const initialUserState: UserState = {
  profile: idle<User>(),
  updateProfile: updateIdle(),
  addVendorRole: idle<VendorRoleResponse>(),
  avatar: idle<{ url: string }>(),
  discord: idle<DiscordLink | null>(),
  portal: idle<{ url: string }>(),
  apps: idle<Licence[]>(),
};

/** The licence with the same id takes the answer's place (the list is left alone without it). */
export function replaceLicence(list: Licence[] | null, licence: Licence): Licence[] | null {
  return list ? list.map((l) => (l.id === licence.id ? licence : l)) : list;
}

export const userSlice = createSlice({
  name: 'user',
  initialState: initialUserState,
  reducers: {
    /** The outcome message has been shown (or the user edits the name again). */
    clearUpdateStatus: (s) => {
      s.updateProfile.message = null;
      s.updateProfile.outcome = null;
      s.updateProfile.error = null;
    },
    clearUser: () => initialUserState,
  },
  extraReducers: (b) => {
    b.addCase(fetchProfile.pending, (s) => start(s.profile))
      .addCase(fetchProfile.fulfilled, (s, a) => succeed(s.profile, a.payload))
      .addCase(fetchProfile.rejected, (s, a) => fail(s.profile, a.payload as ApiError | undefined))
      .addCase(updateProfile.pending, (s) => {
        s.updateProfile = { ...updateIdle(), status: 'loading', loading: true };
      })
      .addCase(updateProfile.fulfilled, (s, a) => {
        // docs/product.md#user-group: merge the returned user into the profile data; status reset, loading stopped.
        s.profile.data = { ...(s.profile.data ?? a.payload), ...a.payload };
        s.updateProfile = {
          ...updateIdle(),
          data: a.payload,
          message: usersMessages.usernameUpdated,
          outcome: 'success',
        };
      })
      .addCase(updateProfile.rejected, (s, a) => {
        // docs/product.md#user-group: the server's error text, else the fallback; status reset, loading stopped.
        const err = a.payload as ApiError | undefined;
        s.updateProfile = {
          ...updateIdle(),
          error: err ?? null,
          message: err?.error || usersMessages.updateFailed,
          outcome: 'failure',
        };
      })
      .addCase(addVendorRole.pending, (s) => start(s.addVendorRole))
      .addCase(addVendorRole.fulfilled, (s, a) => {
        succeed(s.addVendorRole, a.payload);
        if (s.profile.data) s.profile.data.roles = a.payload.user.roles;
      })
      .addCase(addVendorRole.rejected, (s, a) =>
        fail(s.addVendorRole, a.payload as ApiError | undefined),
      )
      .addCase(uploadAvatar.pending, (s) => start(s.avatar))
      .addCase(uploadAvatar.fulfilled, (s, a) => {
        succeed(s.avatar, { url: a.payload.url });
        s.profile.data = { ...(s.profile.data ?? a.payload.user), ...a.payload.user };
      })
      .addCase(uploadAvatar.rejected, (s, a) => fail(s.avatar, a.payload as ApiError | undefined))
      .addCase(openCustomerPortal.pending, (s) => start(s.portal))
      .addCase(openCustomerPortal.fulfilled, (s, a) => succeed(s.portal, a.payload))
      .addCase(openCustomerPortal.rejected, (s, a) =>
        fail(s.portal, a.payload as ApiError | undefined),
      )
      .addCase(userDiscordCall.pending, (s) => start(s.discord))
      .addCase(userDiscordCall.fulfilled, (s, a) => succeed(s.discord, a.payload))
      .addCase(userDiscordCall.rejected, (s, a) => fail(s.discord, a.payload))
      // Linking and unlinking answer with the account as it now stands.
      .addCase(discordAuthCall.fulfilled, (s, a) => succeed(s.discord, a.payload.discord))
      .addCase(discordUnlinkCall.fulfilled, (s) => succeed(s.discord, null))
      // Reloading keeps the cards on screen (`start` leaves the data).
      .addCase(appsCall.pending, (s) => start(s.apps))
      .addCase(appsCall.fulfilled, (s, a) => succeed(s.apps, a.payload))
      .addCase(appsCall.rejected, (s, a) => fail(s.apps, a.payload))
      .addCase(deactivateDeviceCall.fulfilled, (s, a) => {
        s.apps.data = replaceLicence(s.apps.data, a.payload);
      })
      .addCase(resetLicenceKeyCall.fulfilled, (s, a) => {
        s.apps.data = replaceLicence(s.apps.data, a.payload);
      })
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.user));
  },
});

export const { clearUpdateStatus, clearUser } = userSlice.actions;
