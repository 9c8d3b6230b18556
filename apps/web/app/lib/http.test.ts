import { endpoints, IDEMPOTENCY_KEY_HEADER, type RouteRef } from '@tradeshelf/contract/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, NETWORK_ERROR } from './http.ts';
import { memoryStorage, recordFromLogin, SessionStore, TOKENS_KEY } from './session.ts';

const rotated = {
  authentication_token: 'access-2',
  access_token_validity: 15,
  refresh_token: 'refresh-2',
  refresh_token_validity: 60,
};

type Reply = [number, unknown] | (() => Promise<Response>);

function client(replies: Reply[], refresh = vi.fn(), signedIn = true) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const reply = replies.shift() ?? [500, {}];
    if (typeof reply === 'function') return reply();
    const [status, body] = reply;
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
  const storage = memoryStorage();
  const session = new SessionStore({
    storage,
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    refresh,
  });
  if (signedIn)
    session.write(
      recordFromLogin(
        {
          id: 'usr_1',
          email: 'a@example.com',
          token: 'access-1',
          accessTokenValidity: 900,
          refreshToken: 'refresh-1',
          refreshTokenValidity: 60,
          emailVerified: true,
          verificationDaysRemaining: 0,
        },
        Date.now(),
      ),
    );
  const auth = (i: number) =>
    (calls[i]!.init.headers as Record<string, string>).authorization ?? null;
  return {
    api: new ApiClient('https://api.test', session, fetchImpl),
    calls,
    session,
    storage,
    auth,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12));
});
afterEach(() => vi.useRealTimers());

describe('ApiClient: credentials and bearer tokens (docs/product.md#bearer-tokens)', () => {
  const email = { email: 'a@example.com' };
  const code = { ...email, code: '123456' };
  const publicCalls: Array<[string, RouteRef, unknown]> = [
    ['login', endpoints.login, { ...email, password: 'pw' }],
    ['signup', endpoints.signupBuyer, { ...email, password: 'pw-long-enough' }],
    ['forgot: send', endpoints.sendForgotPasswordEmail, email],
    ['forgot: check', endpoints.checkForgotPasswordCode, code],
    ['forgot: reset', endpoints.resetForgotPassword, { ...code, password: 'pw-long-enough' }],
    ['activation: send', endpoints.sendAccountVerificationEmail, email],
    ['activation: verify', endpoints.verifyAccountCode, code],
  ];

  it.each(publicCalls)('%s sends no bearer token and no cookies', async (_, route, body) => {
    const { api, calls, auth } = client([[200, { message: 'ok' }]]);
    await api.call(route, { body } as never);
    expect(calls[0]!.init.credentials).toBe('omit');
    expect(auth(0)).toBeNull();
    expect(calls[0]!.init.method).toBe(route.method);
    expect(calls[0]!.url).toBe(`https://api.test${route.path}`);
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual(body);
  });

  it('sends the bearer access token on protected calls, never cookies', async () => {
    const { api, calls, auth } = client([[200, { user: {} }]]);
    await api.call(endpoints.getProfile, {});
    expect(auth(0)).toBe('Bearer access-1');
    expect(calls[0]!.init.credentials).toBe('omit');
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it('sends the refresh token as the bearer on refresh calls', async () => {
    const { api, calls, auth } = client([[200, rotated]]);
    await api.call(endpoints.refreshToken, {
      body: { user_id: 'usr_1', refresh_token: 'refresh-1' },
    });
    expect(auth(0)).toBe('Bearer refresh-1');
    expect(calls[0]!.init.credentials).toBe('omit');
  });

  it('sends the token on optional calls only when signed in', async () => {
    const events = {
      events: [
        {
          type: 'page_view' as const,
          anonymousId: 'anon-1234',
          path: '/',
          occurredAt: '2026-11-22T12:00:00.000Z',
        },
      ],
    };
    const signedIn = client([[202, { accepted: 1 }]]);
    await signedIn.api.call(endpoints.track, { body: events });
    expect(signedIn.auth(0)).toBe('Bearer access-1');
    const anonymous = client([[202, { accepted: 1 }]], vi.fn(), false);
    await anonymous.api.call(endpoints.track, { body: events });
    expect(anonymous.auth(0)).toBeNull();
  });

  it('refuses a bearer call without a session without sending it', async () => {
    const { api, calls } = client([], vi.fn(), false);
    await expect(api.call(endpoints.getProfile, {})).rejects.toMatchObject({
      code: 'unauthorized',
    });
    expect(calls).toHaveLength(0);
  });

  it('builds the query string and sends multipart bodies as they are', async () => {
    const { api, calls } = client([[200, { url: '/files/a.png', user: {} }]]);
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await api.call(endpoints.imageUpload, { query: { category: 'avatar' } }, { formData: form });
    expect(calls[0]!.url).toBe('https://api.test/api/v1/image-upload?category=avatar');
    expect(calls[0]!.init.body).toBe(form);
    expect((calls[0]!.init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });
});

describe('ApiClient: extra headers', () => {
  const checkout = {
    query: { vendorUrl: 'alpha-edge' },
    body: { priceId: 'price_1' },
  };
  const header = (init: RequestInit, name: string) =>
    (init.headers as Record<string, string>)[name] ?? null;

  it('sends an Idempotency-Key, also on the retry after a 401', async () => {
    const refresh = vi.fn().mockResolvedValue(rotated);
    const { api, calls, auth } = client(
      [
        [401, { error: 'expired', code: 'invalid_token' }],
        [201, { url: 'https://pay.test/s', sessionId: 'cs_1' }],
      ],
      refresh,
    );
    await api.call(endpoints.checkoutProduct, checkout, {
      headers: { 'Idempotency-Key': 'key-1' },
    });
    expect(calls.map((c) => header(c.init, IDEMPOTENCY_KEY_HEADER))).toEqual(['key-1', 'key-1']);
    expect(auth(1)).toBe('Bearer access-2');
    expect(calls[0]!.init.credentials).toBe('omit');
  });

  it('cannot replace the headers the client owns', async () => {
    const { api, calls, auth } = client([[201, { url: 'u', sessionId: 's' }]]);
    await api.call(endpoints.checkoutProduct, checkout, {
      headers: { Authorization: 'Bearer forged', 'Content-Type': 'text/plain', Accept: 'x' },
    });
    expect(auth(0)).toBe('Bearer access-1');
    expect(header(calls[0]!.init, 'content-type')).toBe('application/json');
    expect(header(calls[0]!.init, 'accept')).toBe('application/json');
    expect(Object.keys(calls[0]!.init.headers as object).sort()).toEqual([
      'accept',
      'authorization',
      'content-type',
    ]);
  });
});

describe('ApiClient: errors and 401 handling', () => {
  it('rejects with the parsed error body, fields included', async () => {
    const body = {
      error: 'Check the highlighted fields.',
      code: 'validation_failed',
      fields: { email: 'Enter a valid e-mail address.' },
    };
    const { api } = client([[400, body]]);
    await expect(
      api.call(endpoints.login, { body: { email: 'x', password: 'y' } }),
    ).rejects.toEqual(body);
  });

  it('gives an error shape even when the error body is not one', async () => {
    const { api } = client([() => Promise.resolve(new Response('<html>', { status: 502 }))]);
    await expect(
      api.call(endpoints.login, { body: { email: 'x', password: 'y' } }),
    ).rejects.toMatchObject({ code: 'internal', error: expect.any(String) });
  });

  it('reports network failures as the network error', async () => {
    const { api } = client([() => Promise.reject(new TypeError('Failed to fetch'))]);
    await expect(
      api.call(endpoints.login, { body: { email: 'a@b.co', password: 'x' } }),
    ).rejects.toEqual(NETWORK_ERROR);
    expect(NETWORK_ERROR).toEqual({
      error: 'Network error. Check your connection and try again.',
      code: 'network',
    });
  });

  it('refreshes once on a 401 and retries once with the new token', async () => {
    const refresh = vi.fn().mockResolvedValue(rotated);
    const { api, calls, auth } = client(
      [
        [401, { error: 'expired', code: 'invalid_token' }],
        [200, { user: { id: 'usr_1' } }],
      ],
      refresh,
    );
    expect(await api.call(endpoints.getProfile, {})).toEqual({ user: { id: 'usr_1' } });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(2);
    expect(auth(1)).toBe('Bearer access-2');
  });

  it('clears the session when the refresh after a 401 fails', async () => {
    const refresh = vi.fn().mockRejectedValue({ error: 'reused', code: 'token_reused' });
    const { api, session, storage } = client(
      [[401, { error: 'Your session has expired. Sign in again.', code: 'invalid_token' }]],
      refresh,
    );
    await expect(api.call(endpoints.getProfile, {})).rejects.toEqual({
      error: 'Your session has expired. Sign in again.',
      code: 'invalid_token',
    });
    expect(session.peek()).toBeNull();
    expect(storage.getItem(TOKENS_KEY)).toBeNull();
  });

  it('gives up after one retry: a second 401 logs out', async () => {
    const refresh = vi.fn().mockResolvedValue(rotated);
    const { api, session, calls } = client(
      [
        [401, { error: 'no', code: 'invalid_token' }],
        [401, { error: 'still no', code: 'invalid_token' }],
      ],
      refresh,
    );
    await expect(api.call(endpoints.getProfile, {})).rejects.toMatchObject({
      error: 'still no',
    });
    expect(calls).toHaveLength(2);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(session.peek()).toBeNull();
  });

  it('concurrent 401s share one refresh', async () => {
    let resolve!: (v: unknown) => void;
    const refresh = vi.fn().mockReturnValue(new Promise((r) => (resolve = r)));
    const { api } = client(
      [
        [401, { error: 'x', code: 'invalid_token' }],
        [401, { error: 'x', code: 'invalid_token' }],
        [200, { user: { id: 'a' } }],
        [200, { user: { id: 'b' } }],
      ],
      refresh,
    );
    const a = api.call(endpoints.getProfile, {});
    const b = api.call(endpoints.getProfile, {});
    await vi.waitFor(() => expect(refresh).toHaveBeenCalled());
    resolve(rotated);
    await Promise.all([a, b]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('does not refresh on a 401 from a public call', async () => {
    const refresh = vi.fn();
    const { api, session } = client(
      [[401, { error: 'Invalid e-mail or password.', code: 'invalid_credentials' }]],
      refresh,
    );
    await expect(
      api.call(endpoints.login, { body: { email: 'a@b.co', password: 'x' } }),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(refresh).not.toHaveBeenCalled();
    expect(session.peek()).not.toBeNull();
  });
});
