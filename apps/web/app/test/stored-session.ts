/**
 * The fields of the session kept in local storage under `tokens` (docs/product.md#sessions),
 * sorted: what the session's unit test and the e2e sign-up walk expect to find there, and no more.
 */
export const STORED_SESSION_FIELDS = [
  'accessToken',
  'accessTokenExpiry',
  'emailVerified',
  'refreshToken',
  'refreshTokenExpiry',
  'userEmail',
  'userId',
];
