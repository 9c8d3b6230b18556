import { endpoints, isApiError } from '@tradeshelf/contract/client';
import type { ApiError, LoginResponse, ResponseOf } from '@tradeshelf/contract';
import { requestThunk as thunk } from '../../lib/thunk.ts';

type Credentials = { email: string; password: string };

/**
 * The outcome of a login answer (docs/product.md#verification-grace): `blocked` when the e-mail is unverified with one day or
 * less of grace left (nothing stored, not logged in); `scheduled` when the session will be stored
 * after SESSION_STORE_DELAY_MS, at which point the store marks the user logged in.
 */
export type SignInResult =
  | { response: LoginResponse; outcome: 'blocked' | 'scheduled' }
  /** Two-factor on (ADR 054): no session yet; the second step presents this challenge. */
  | { response: null; outcome: 'two-factor'; challenge: string; passkeys: boolean };

export const login = thunk<Credentials, SignInResult>(
  'auth/login',
  async (body, { api, session }) => {
    const answer = await api.call(endpoints.login, { body });
    if (answer.twoFactorRequired)
      return {
        response: null,
        outcome: 'two-factor',
        challenge: answer.challenge,
        passkeys: answer.passkeys,
      };
    return { response: answer, outcome: session.acceptLogin(answer) };
  },
);

/** The second step: its session is applied exactly like a password login's (store delay, grace). */
export const loginTwoFactor = thunk<{ challenge: string; code: string }, SignInResult>(
  'auth/loginTwoFactor',
  async (body, { api, session }) => {
    const response = await api.call(endpoints.loginTwoFactor, { body });
    return { response, outcome: session.acceptLogin(response) };
  },
);

/** Sign-up answers 201 with a login answer: it is applied exactly like a login. */
export const signup = thunk<Credentials, SignInResult>(
  'auth/signup',
  async (body, { api, session }) => {
    const response = await api.call(endpoints.signupBuyer, { body });
    return { response, outcome: session.acceptLogin(response) };
  },
);

export const sendForgotPasswordEmail = thunk<{ email: string }, { message: string }>(
  'auth/forgotPassword/sendEmail',
  (body, { api }) => api.call(endpoints.sendForgotPasswordEmail, { body }),
);
export const checkForgotPasswordCode = thunk<{ email: string; code: string }, { message: string }>(
  'auth/forgotPassword/checkCode',
  (body, { api }) => api.call(endpoints.checkForgotPasswordCode, { body }),
);
export const resetForgotPassword = thunk<
  { email: string; code: string; password: string },
  { message: string }
>('auth/forgotPassword/reset', (body, { api }) =>
  api.call(endpoints.resetForgotPassword, { body }),
);

/**
 * docs/product.md#passwords: a change-password answer carrying an `error` field is a failure, whatever its status.
 * On success the stored session takes the new token pair (the server revoked the old ones).
 */
export const changePassword = thunk<
  { currentPassword: string; newPassword: string },
  { message: string }
>('auth/changePassword', async (body, { api, session }) => {
  const res: unknown = await api.call(endpoints.changePassword, { body });
  if (res && typeof res === 'object' && 'error' in res) {
    throw isApiError(res)
      ? res
      : ({ error: String((res as { error: unknown }).error), code: 'bad_request' } as ApiError);
  }
  const answer = res as ResponseOf<typeof endpoints.changePassword>;
  session.replaceTokens(answer);
  return { message: answer.message };
});

export const sendAccountActivationEmail = thunk<{ email: string }, { message: string }>(
  'auth/sendAccountActivationEmail',
  (body, { api }) => api.call(endpoints.sendAccountVerificationEmail, { body }),
);

/** On success the session (stored or still pending) records the e-mail as verified. */
export const verifyAccountActivation = thunk<{ email: string; code: string }, { message: string }>(
  'auth/verifyAccountActivation',
  async (body, { api, session }) => {
    const res = await api.call(endpoints.verifyAccountCode, { body });
    session.markVerified(body.email);
    return { message: res.message };
  },
);
