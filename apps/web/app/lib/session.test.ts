import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginAnswer as login } from '../testing.ts';
import { STORED_SESSION_FIELDS } from '../test/stored-session.ts';
import {
  blockedByGrace,
  recordFromLogin,
  recordFromRefresh,
  recordWithNewPair,
  REFRESH_SKEW_MS,
  SESSION_STORE_DELAY_MS,
  SessionStore,
  TOKEN_KEY,
  TOKENS_KEY,
  memoryStorage,
} from './session.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const rotated = {
  authentication_token: 'access-2',
  access_token_validity: 15,
  refresh_token: 'refresh-2',
  refresh_token_validity: 60,
};

function setup(refresh = vi.fn()) {
  const storage = memoryStorage();
  const store = new SessionStore({
    storage,
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    refresh,
  });
  const events: string[] = [];
  store.subscribe((e) => events.push(e.type));
  return { storage, store, events, refresh };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('login storage timing (docs/product.md#sessions)', () => {
  it('stores the session exactly 5000 ms after the answer, under tokens and token', () => {
    const { storage, store, events } = setup();
    expect(store.acceptLogin(login())).toBe('scheduled');
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS - 1);
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    const stored = JSON.parse(storage.getItem(TOKENS_KEY)!);
    expect(Object.keys(stored).sort()).toEqual(STORED_SESSION_FIELDS);
    expect(storage.getItem(TOKEN_KEY)).toBe('access-1');
    expect(events).toEqual(['stored']);
  });

  it('computes expiries: access = validity s × 1000, refresh one minute early', () => {
    const r = recordFromLogin(login({ accessTokenValidity: 900, refreshTokenValidity: 60 }), T0);
    expect(r.accessTokenExpiry).toBe(T0 + 900_000);
    expect(r.refreshTokenExpiry).toBe(T0 + 59 * 60_000);
  });

  it('applies the grace rule: unverified with ≤ 1 day left is not stored', () => {
    expect(blockedByGrace({ emailVerified: false, verificationDaysRemaining: 1 })).toBe(true);
    expect(blockedByGrace({ emailVerified: false, verificationDaysRemaining: 0 })).toBe(true);
    expect(blockedByGrace({ emailVerified: false, verificationDaysRemaining: 2 })).toBe(false);
    expect(blockedByGrace({ emailVerified: true, verificationDaysRemaining: 0 })).toBe(false);
    const { storage, store, events } = setup();
    expect(store.acceptLogin(login({ emailVerified: false, verificationDaysRemaining: 1 }))).toBe(
      'blocked',
    );
    vi.advanceTimersByTime(60_000);
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    expect(events).toEqual([]);
  });

  it('stores the login exactly once, with expiries counted from the moment of storing', () => {
    const { storage, store, events } = setup();
    store.acceptLogin(login({ accessTokenValidity: 900, refreshTokenValidity: 60 }));
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    const stored = JSON.parse(storage.getItem(TOKENS_KEY)!);
    expect(stored).toEqual({
      userId: 'usr_1',
      userEmail: 'a@example.com',
      accessToken: 'access-1',
      accessTokenExpiry: T0 + SESSION_STORE_DELAY_MS + 900_000,
      refreshToken: 'refresh-1',
      refreshTokenExpiry: T0 + SESSION_STORE_DELAY_MS + 59 * 60_000,
      emailVerified: true,
    });
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual(['stored']);
  });

  it('stores an unverified login that still has more than a day of grace', () => {
    const { storage, store } = setup();
    expect(store.acceptLogin(login({ emailVerified: false, verificationDaysRemaining: 2 }))).toBe(
      'scheduled',
    );
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(JSON.parse(storage.getItem(TOKENS_KEY)!).emailVerified).toBe(false);
  });

  it('a verification during the delay is kept when the login is stored', () => {
    const { storage, store } = setup();
    store.acceptLogin(login({ emailVerified: false, verificationDaysRemaining: 7 }));
    expect(store.pendingAnswer()?.email).toBe('a@example.com');
    store.markVerified('A@example.com');
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(JSON.parse(storage.getItem(TOKENS_KEY)!).emailVerified).toBe(true);
    expect(store.pendingAnswer()).toBeNull();
  });

  it('marks a stored session verified only for its own e-mail', () => {
    const { store } = setup();
    store.write(recordFromLogin(login({ emailVerified: false, verificationDaysRemaining: 7 }), T0));
    store.markVerified('someone-else@example.com');
    expect(store.peek()?.emailVerified).toBe(false);
    store.markVerified('a@example.com');
    expect(store.peek()?.emailVerified).toBe(true);
  });

  it('a logout during the delay cancels the pending store', () => {
    const { storage, store } = setup();
    store.acceptLogin(login());
    store.clear();
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
  });
});

describe('expiry and refresh', () => {
  it('returns the stored session while the access token is valid', async () => {
    const { store, refresh } = setup();
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000 - REFRESH_SKEW_MS - 1);
    expect((await store.current())?.accessToken).toBe('access-1');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes a token that is about to expire instead of sending it', async () => {
    const refresh = vi.fn().mockResolvedValue(rotated);
    const { store } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000 - REFRESH_SKEW_MS);
    expect((await store.current())?.accessToken).toBe('access-2');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh.mock.calls[0]![0]).toMatchObject({ userId: 'usr_1', refreshToken: 'refresh-1' });
  });

  it('computes refresh expiries: both validities in minutes, both one minute early', () => {
    const prev = recordFromLogin(login(), T0);
    expect(recordFromRefresh(prev, rotated, T0)).toEqual({
      ...prev,
      accessToken: 'access-2',
      accessTokenExpiry: T0 + 14 * 60_000,
      refreshToken: 'refresh-2',
      refreshTokenExpiry: T0 + 59 * 60_000,
    });
  });

  it('replaces the token pair after a password change (access seconds, refresh minutes)', () => {
    const { store, storage } = setup();
    expect(
      store.replaceTokens({
        token: 'x',
        accessTokenValidity: 1,
        refreshToken: 'y',
        refreshTokenValidity: 1,
      }),
    ).toBe(false);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(1000);
    store.replaceTokens({
      token: 'access-3',
      accessTokenValidity: 600,
      refreshToken: 'refresh-3',
      refreshTokenValidity: 120,
    });
    expect(store.peek()).toEqual(
      recordWithNewPair(
        recordFromLogin(login(), T0),
        {
          token: 'access-3',
          accessTokenValidity: 600,
          refreshToken: 'refresh-3',
          refreshTokenValidity: 120,
        },
        T0 + 1000,
      ),
    );
    expect(store.peek()).toMatchObject({
      userId: 'usr_1',
      accessTokenExpiry: T0 + 1000 + 600_000,
      refreshTokenExpiry: T0 + 1000 + 119 * 60_000,
    });
    expect(storage.getItem(TOKEN_KEY)).toBe('access-3');
  });

  it('refreshes an expired access token and stores the rotated pair (minutes, one minute early)', async () => {
    const refresh = vi.fn().mockResolvedValue(rotated);
    const { store, storage } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000);
    const next = await store.current();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(next).toMatchObject({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
      accessTokenExpiry: Date.now() + 14 * 60_000,
      refreshTokenExpiry: Date.now() + 59 * 60_000,
    });
    expect(storage.getItem(TOKEN_KEY)).toBe('access-2');
  });

  it('clears the session and logs out when the refresh fails', async () => {
    const refresh = vi.fn().mockRejectedValue({ error: 'nope', code: 'token_reused' });
    const { store, storage, events } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000);
    expect(await store.current()).toBeNull();
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(events).toEqual(['stored', 'cleared']);
  });

  it('clears an expired session whose refresh token has expired too, without calling the server', async () => {
    const { store, refresh, storage, events } = setup();
    store.write(recordFromLogin(login({ refreshTokenValidity: 10 }), T0));
    vi.advanceTimersByTime(900_000);
    expect(await store.current()).toBeNull();
    expect(refresh).not.toHaveBeenCalled();
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(events).toEqual(['stored', 'cleared']);
  });

  it('a logout while a refresh is in flight is not undone by its answer', async () => {
    let resolve!: (v: unknown) => void;
    const refresh = vi.fn().mockReturnValue(new Promise((r) => (resolve = r)));
    const { store, storage } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000);
    const pending = store.current();
    store.clear();
    resolve(rotated);
    expect(await pending).toBeNull();
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
  });

  it('shares one refresh between concurrent callers', async () => {
    let resolve!: (v: unknown) => void;
    const refresh = vi.fn().mockReturnValue(new Promise((r) => (resolve = r)));
    const { store } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000);
    const a = store.current();
    const b = store.current();
    const c = store.refresh();
    resolve({
      authentication_token: 'access-2',
      access_token_validity: 15,
      refresh_token: 'refresh-2',
      refresh_token_validity: 60,
    });
    const results = await Promise.all([a, b, c]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r?.accessToken)).toEqual(['access-2', 'access-2', 'access-2']);
    // Once settled, a later expiry starts a new refresh.
    vi.advanceTimersByTime(15 * 60_000);
    refresh.mockResolvedValue({ ...rotated, authentication_token: 'access-3' });
    expect((await store.current())?.accessToken).toBe('access-3');
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('a failed shared refresh logs every waiting caller out', async () => {
    let reject!: (e: unknown) => void;
    const refresh = vi.fn().mockReturnValue(new Promise((_, r) => (reject = r)));
    const { store, events } = setup(refresh);
    store.write(recordFromLogin(login(), T0));
    vi.advanceTimersByTime(900_000);
    const waiting = [store.current(), store.current()];
    reject({ error: 'reused', code: 'token_reused' });
    expect(await Promise.all(waiting)).toEqual([null, null]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(events).toEqual(['stored', 'cleared']);
  });

  it('treats a malformed record as no session', async () => {
    const { store, storage } = setup();
    storage.setItem(TOKENS_KEY, '{"userId":1}');
    storage.setItem(TOKEN_KEY, 'x');
    expect(await store.current()).toBeNull();
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('checking for a session does not cancel a login waiting out its delay', async () => {
    const { store, storage } = setup();
    store.acceptLogin(login());
    expect(await store.current()).toBeNull();
    vi.advanceTimersByTime(SESSION_STORE_DELAY_MS);
    expect(storage.getItem(TOKEN_KEY)).toBe('access-1');
  });
});
