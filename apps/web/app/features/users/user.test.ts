import { usersMessages, type User } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { hydrate } from '../../lib/hydrate.ts';
import {
  addVendorRole,
  fetchProfile,
  openCustomerPortal,
  updateProfile,
  uploadAvatar,
} from './api.ts';
import {
  clearUpdateStatus,
  clearUser,
  initialUserState,
  userSlice,
  type UserState,
} from './slice.ts';

const reduce = (state: UserState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((s, a) => userSlice.reducer(s, a), state);
const user: User = {
  id: 'u',
  email: 'a@b.co',
  username: '',
  emailVerified: true,
  roles: ['buyer'],
  avatarUrl: null,
  avatar: null,
  createdAt: '2026-11-22T00:00:00.000Z',
};
const arg = { username: 'trader_1' };

describe('user group (docs/product.md#user-group)', () => {
  it('starts idle, with the §3 placeholders', () => {
    for (const group of [
      initialUserState.profile,
      initialUserState.addVendorRole,
      initialUserState.discord,
      initialUserState.portal,
      initialUserState.apps,
    ])
      expect(group).toEqual({ status: 'idle', data: null, error: null });
  });

  it('profile fetch: loading → success / failure with the whole error', () => {
    expect(reduce(initialUserState, fetchProfile.pending('id')).profile.status).toBe('loading');
    expect(reduce(initialUserState, fetchProfile.fulfilled(user, 'id')).profile).toEqual({
      status: 'success',
      data: user,
      error: null,
    });
    const err = { error: 'Sign in to continue.', code: 'unauthorized' };
    expect(
      reduce(initialUserState, fetchProfile.rejected(null, 'id', undefined, err)).profile,
    ).toEqual({ status: 'failure', data: null, error: err });
  });

  it('profile update: loading while saving', () => {
    const s = reduce(initialUserState, updateProfile.pending('id', arg));
    expect(s.updateProfile).toMatchObject({ status: 'loading', loading: true, message: null });
  });

  it('profile update success: merges the returned user, the message, status reset, loading stopped', () => {
    const withProfile = { ...user, avatarUrl: '/files/a.png' };
    let s = reduce(
      initialUserState,
      fetchProfile.fulfilled(withProfile, 'id'),
      updateProfile.pending('id', arg),
    );
    // The answer carries only some fields: they are merged over the profile data.
    s = reduce(
      s,
      updateProfile.fulfilled({ ...user, username: 'trader_1', avatarUrl: null }, 'id', arg),
    );
    expect(s.profile.data).toEqual({ ...withProfile, username: 'trader_1', avatarUrl: null });
    expect(s.profile.status).toBe('success');
    expect(s.updateProfile).toMatchObject({
      status: 'idle',
      loading: false,
      message: 'Username updated successfully',
      outcome: 'success',
      error: null,
    });
    s = reduce(s, clearUpdateStatus());
    expect(s.updateProfile).toMatchObject({ status: 'idle', message: null, outcome: null });
  });

  it('profile update merge keeps fields the answer does not carry', () => {
    const s = reduce(
      initialUserState,
      fetchProfile.fulfilled(user, 'id'),
      updateProfile.fulfilled({ username: 'only_this' } as User, 'id', { username: 'only_this' }),
    );
    expect(s.profile.data).toEqual({ ...user, username: 'only_this' });
  });

  it('profile update failure: the server text, status reset, loading stopped, profile untouched', () => {
    const err = { error: 'That username is taken. Try another.', code: 'username_taken' };
    const s = reduce(
      initialUserState,
      fetchProfile.fulfilled(user, 'id'),
      updateProfile.pending('id', arg),
      updateProfile.rejected(null, 'id', arg, err),
    );
    expect(s.updateProfile).toMatchObject({
      status: 'idle',
      loading: false,
      message: 'That username is taken. Try another.',
      outcome: 'failure',
      error: err,
    });
    expect(s.profile.data).toEqual(user);
  });

  it('profile update failure without server text: the fallback message', () => {
    const s = reduce(
      initialUserState,
      updateProfile.pending('id', arg),
      updateProfile.rejected(new Error('x'), 'id', arg),
    );
    expect(s.updateProfile).toMatchObject({
      loading: false,
      status: 'idle',
      message: 'Failed to update profile! Please try again.',
      outcome: 'failure',
    });
    expect(usersMessages.updateFailed).toBe('Failed to update profile! Please try again.');
    const empty = reduce(
      initialUserState,
      updateProfile.rejected(null, 'id', arg, { error: '', code: 'internal' }),
    );
    expect(empty.updateProfile.message).toBe(usersMessages.updateFailed);
  });

  it('vendor role: loading → success, roles updated in the profile; failure keeps the error', () => {
    const payload = {
      token: 'v',
      accessTokenValidity: 900,
      user: { email: 'a@b.co', token: 'v', roles: ['buyer', 'vendor'] as User['roles'] },
    };
    let s = reduce(
      initialUserState,
      fetchProfile.fulfilled(user, 'id'),
      addVendorRole.pending('id'),
    );
    expect(s.addVendorRole.status).toBe('loading');
    s = reduce(s, addVendorRole.fulfilled(payload, 'id'));
    expect(s.profile.data?.roles).toEqual(['buyer', 'vendor']);
    expect(s.addVendorRole).toEqual({ status: 'success', data: payload, error: null });
    const err = { error: 'Too many requests.', code: 'rate_limited' };
    expect(
      reduce(initialUserState, addVendorRole.rejected(null, 'id', undefined, err)).addVendorRole,
    ).toEqual({ status: 'failure', data: null, error: err });
  });

  it('avatar upload merges the returned user', () => {
    const file = {} as File;
    const s = reduce(
      initialUserState,
      fetchProfile.fulfilled(user, 'id'),
      uploadAvatar.fulfilled(
        { url: '/files/x.png', user: { ...user, avatarUrl: '/files/x.png' } },
        'id',
        file,
      ),
    );
    expect(s.profile.data?.avatarUrl).toBe('/files/x.png');
    expect(s.avatar.status).toBe('success');
  });

  it('customer portal: loading → the session url; failure keeps the server message', () => {
    let s = reduce(initialUserState, openCustomerPortal.pending('id', 'alpha-edge'));
    expect(s.portal.status).toBe('loading');
    s = reduce(s, openCustomerPortal.fulfilled({ url: '/sandbox/portal/tok' }, 'id', 'alpha-edge'));
    expect(s.portal).toEqual({
      status: 'success',
      data: { url: '/sandbox/portal/tok' },
      error: null,
    });
    const err = { error: 'You have no subscriptions with this vendor.', code: 'business_rule' };
    expect(
      reduce(initialUserState, openCustomerPortal.rejected(null, 'id', 'alpha-edge', err)).portal,
    ).toEqual({ status: 'failure', data: null, error: err });
  });

  it('hydrate merges server state into client state', () => {
    const before = reduce(initialUserState, addVendorRole.pending('id'));
    const s = reduce(before, hydrate({ user: { profile: { status: 'success', data: user } } }));
    expect(s.profile).toEqual({ status: 'success', data: user, error: null });
    expect(s.addVendorRole.status).toBe('loading');
  });

  it('logging out clears the user group', () => {
    const s = reduce(initialUserState, fetchProfile.fulfilled(user, 'id'), clearUser());
    expect(s).toEqual(initialUserState);
  });
});
