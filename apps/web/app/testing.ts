import type { LoginResponse } from '@tradeshelf/contract';
import { memoryStorage, recordFromLogin } from './lib/session.ts';
import { makeStore } from './store.ts';

/** For tests: the API's answer to a login as `usr_1`, verified, with `overrides`. */
export const loginAnswer = (overrides: Partial<LoginResponse> = {}): LoginResponse => ({
  id: 'usr_1',
  email: 'a@example.com',
  token: 'access-1',
  accessTokenValidity: 900,
  refreshToken: 'refresh-1',
  refreshTokenValidity: 43_200,
  emailVerified: true,
  verificationDaysRemaining: 0,
  ...overrides,
});

/**
 * For tests: a store signed in as `usr_1`, whose HTTP client calls `respond` instead of the network
 * (the URL resolved against `http://app.test`).
 */
export function signedInStore(
  respond: (url: URL, init: RequestInit) => Promise<Response> | Response,
) {
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) =>
    respond(new URL(String(url), 'http://app.test'), init ?? {})) as typeof fetch;
  const made = makeStore({ storage: memoryStorage(), fetch: fetchImpl });
  made.session.write(
    recordFromLogin(loginAnswer({ refreshToken: 'r', refreshTokenValidity: 60 }), Date.now()),
  );
  return made;
}
