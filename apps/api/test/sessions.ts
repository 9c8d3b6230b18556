import { authRoutes, usersRoutes } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './harness.ts';

/** Swaps a refresh token for a new pair, as the apps do: the access token it came with as bearer. */
export const refreshSession = (t: TestApp, userId: string, token: string) =>
  t.call(authRoutes.refreshToken, { body: { user_id: userId, refresh_token: token }, token });

/** What the profile answers a token with: on the test app, or on `app` (another node, one database). */
export const profileStatus = async (t: TestApp, token: string, app: FastifyInstance = t.app) =>
  (
    await app.inject({
      url: usersRoutes.getProfile.path,
      headers: { authorization: `Bearer ${token}` },
    })
  ).statusCode;
