import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginAnswer as answer } from './testing.ts';
import { changePassword, login, signup, verifyAccountActivation } from './features/auth/api.ts';
import { reset } from './features/auth/slice.ts';
import { fetchProfile } from './features/users/api.ts';
import { hydrate } from './lib/hydrate.ts';
import {
  recordFromLogin,
  SESSION_STORE_DELAY_MS,
  TOKEN_KEY,
  TOKENS_KEY,
  memoryStorage,
} from './lib/session.ts';
import { makeStore } from './store.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A store on a scripted API: each route path answers from its queue. */
function setup(routes: Record<string, Array<[number, unknown]>> = {}) {
  const storage = memoryStorage();
  const requests: Array<{ path: string; auth: string | null; body: unknown }> = [];
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url), 'http://app.test').pathname;
    requests.push({
      path,
      auth: (init?.headers as Record<string, string>)?.authorization ?? null,
      body: init?.body ? JSON.parse(init.body as string) : undefined,
    });
    const [status, body] = routes[path]?.shift() ?? [
      404,
      { error: 'Not found', code: 'not_found' },
    ];
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch;
  const made = makeStore({ storage, fetch: fetchImpl, now: () => Date.now() });
  return { ...made, storage, requests, state: () => made.store.getState() };
}

const creds = { email: 'a@example.com', password: 'market-maker-77' };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('login through the store (docs/product.md#sessions)', () => {
  it('marks the user logged in exactly when the session is stored, 5000 ms after the answer', async () => {
    const { store, storage, state } = setup({ '/auth/login': [[200, answer()]] });
    await store.dispatch(login(creds));
    expect(state().auth.login.status).toBe('success');
    expect(state().auth.isLoggedIn).toBe(false);
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS - 1);
    expect(state().auth.isLoggedIn).toBe(false);
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    vi.advanceTimersByTime(1);
    expect(state().auth).toMatchObject({ isLoggedIn: true, userId: 'usr_1' });
    expect(storage.getItem(TOKEN_KEY)).toBe('access-1');
    expect(JSON.parse(storage.getItem(TOKENS_KEY)!)).toMatchObject({
      userId: 'usr_1',
      userEmail: 'a@example.com',
      accessTokenExpiry: T0 + SESSION_STORE_DELAY_MS + 900_000,
    });
  });

  it('signing in from the answer until the session is stored, also when already signed in as that user', async () => {
    const { store, session, state } = setup({ '/auth/login': [[200, answer()]] });
    // Signed in already (another tab, an earlier login): logging in again still ends the wait.
    session.write(recordFromLogin(answer(), T0));
    expect(state().auth).toMatchObject({ isLoggedIn: true, userId: 'usr_1' });
    await store.dispatch(login(creds));
    expect(state().auth.signingIn).toBe('a@example.com');
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(state().auth).toMatchObject({ signingIn: null, isLoggedIn: true, userId: 'usr_1' });
  });

  it('grace rule: unverified with one day left is never stored nor logged in', async () => {
    const { store, storage, state } = setup({
      '/auth/login': [[200, answer({ emailVerified: false, verificationDaysRemaining: 1 })]],
    });
    await store.dispatch(login(creds));
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS * 10);
    expect(state().auth).toMatchObject({ isLoggedIn: false, verificationRequired: true });
    expect(state().auth.login.status).toBe('success');
    expect(storage.data.size).toBe(0);
  });

  it('a refused login is a failure with the server error, nothing stored', async () => {
    const err = { error: 'Invalid e-mail or password.', code: 'invalid_credentials' };
    const { store, storage, state } = setup({ '/auth/login': [[401, err]] });
    await store.dispatch(login(creds));
    expect(state().auth.login).toEqual({ status: 'failure', data: null, error: err });
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(storage.data.size).toBe(0);
  });

  it('signup (201) is applied like a login', async () => {
    const { store, state, requests } = setup({
      '/auth/signup/buyer': [[201, answer({ emailVerified: false, verificationDaysRemaining: 7 })]],
    });
    await store.dispatch(signup(creds));
    expect(requests[0]!.auth).toBeNull();
    expect(state().auth.signup.status).toBe('success');
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(state().auth.isLoggedIn).toBe(true);
  });

  it('activation marks the stored session verified', async () => {
    const { store, session, state } = setup({
      '/api/v1/user/verify-account-code': [
        [200, { message: 'Your account is activated.', emailVerified: true }],
      ],
    });
    session.write(
      recordFromLogin(answer({ emailVerified: false, verificationDaysRemaining: 7 }), T0),
    );
    await store.dispatch(verifyAccountActivation({ email: 'a@example.com', code: '123456' }));
    expect(state().auth.verifyAccountActivation.status).toBe('success');
    expect(session.peek()?.emailVerified).toBe(true);
  });

  it('reset returns every auth group to idle', async () => {
    const { store, state } = setup({
      '/auth/login': [[401, { error: 'x', code: 'invalid_credentials' }]],
    });
    await store.dispatch(login(creds));
    store.dispatch(reset());
    expect(state().auth.login).toEqual({ status: 'idle', data: null, error: null });
  });
});

describe('session in the store', () => {
  it('an expired token whose refresh fails is cleared and the user logged out', async () => {
    const { store, session, storage, state, requests } = setup({
      '/refresh_token': [[401, { error: 'Sign in again.', code: 'token_reused' }]],
    });
    session.write(recordFromLogin(answer(), T0));
    expect(state().auth.isLoggedIn).toBe(true);
    vi.advanceTimersByTime(900_000);
    const result = await store.dispatch(fetchProfile());
    expect(fetchProfile.rejected.match(result)).toBe(true);
    expect(requests.map((r) => [r.path, r.auth, r.body])).toEqual([
      ['/refresh_token', 'Bearer refresh-1', { user_id: 'usr_1', refresh_token: 'refresh-1' }],
    ]);
    expect(storage.data.size).toBe(0);
    expect(state().auth.isLoggedIn).toBe(false);
    expect(state().user.profile).toMatchObject({ status: 'failure', data: null });
  });

  it('an expired token is refreshed, the record updated, and the call sent with the new token', async () => {
    const { store, session, state, requests } = setup({
      '/refresh_token': [
        [
          200,
          {
            authentication_token: 'access-2',
            access_token_validity: 15,
            refresh_token: 'refresh-2',
            refresh_token_validity: 43_200,
          },
        ],
      ],
      '/api/v1/user/profile': [
        [
          200,
          {
            user: {
              id: 'usr_1',
              email: 'a@example.com',
              username: '',
              emailVerified: true,
              roles: ['buyer'],
              avatarUrl: null,
              createdAt: '2026-11-22T00:00:00.000Z',
            },
          },
        ],
      ],
    });
    session.write(recordFromLogin(answer(), T0));
    vi.advanceTimersByTime(900_000);
    await store.dispatch(fetchProfile());
    expect(requests[1]).toMatchObject({ path: '/api/v1/user/profile', auth: 'Bearer access-2' });
    expect(session.peek()).toMatchObject({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
      accessTokenExpiry: Date.now() + 14 * 60_000,
    });
    expect(state().auth.isLoggedIn).toBe(true);
    expect(state().user.profile.data?.username).toBe('');
  });
});

describe('change password (docs/product.md#passwords)', () => {
  const body = { currentPassword: 'old-password-1', newPassword: 'brand-new-pass-9' };

  it('an answer carrying an error field is a failure, and the tokens stay', async () => {
    const { store, session, state } = setup({
      '/api/v1/password/reset-request': [
        [200, { error: 'The current password is incorrect.', code: 'invalid_credentials' }],
      ],
    });
    session.write(recordFromLogin(answer(), T0));
    await store.dispatch(changePassword(body));
    expect(state().auth.changePassword).toMatchObject({
      status: 'failure',
      error: { error: 'The current password is incorrect.' },
    });
    expect(session.peek()?.accessToken).toBe('access-1');
  });

  it('success replaces the stored token pair', async () => {
    const { store, session, state, storage } = setup({
      '/api/v1/password/reset-request': [
        [
          200,
          {
            message: 'Password changed. Other devices have been signed out.',
            token: 'access-9',
            accessTokenValidity: 900,
            refreshToken: 'refresh-9',
            refreshTokenValidity: 60,
          },
        ],
      ],
    });
    session.write(recordFromLogin(answer(), T0));
    await store.dispatch(changePassword(body));
    expect(state().auth.changePassword.status).toBe('success');
    expect(session.peek()).toMatchObject({
      accessToken: 'access-9',
      refreshToken: 'refresh-9',
      accessTokenExpiry: T0 + 900_000,
      refreshTokenExpiry: T0 + 59 * 60_000,
    });
    expect(storage.getItem(TOKEN_KEY)).toBe('access-9');
  });
});

describe('store factory', () => {
  it('accepts preloaded state and merges hydrate into it', () => {
    const { store } = makeStore({
      storage: memoryStorage(),
      preloadedState: {
        auth: {
          ...makeStore({ storage: memoryStorage() }).store.getState().auth,
          sessionChecked: true,
        },
      },
    });
    expect(store.getState().auth.sessionChecked).toBe(true);
    store.dispatch(hydrate({ user: { portal: { status: 'success' } } }));
    expect(store.getState().user.portal.status).toBe('success');
    expect(store.getState().auth.sessionChecked).toBe(true);
  });
});
