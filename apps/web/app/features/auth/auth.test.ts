import type { LoginResponse } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { hydrate } from '../../lib/hydrate.ts';
import {
  changePassword,
  checkForgotPasswordCode,
  login,
  resetForgotPassword,
  sendAccountActivationEmail,
  sendForgotPasswordEmail,
  signup,
  verifyAccountActivation,
} from './api.ts';
import { secondStepWithPasskey, signInWithPasskey } from './passkeys.ts';
import {
  authSlice,
  initialAuthState,
  reset,
  sessionEnded,
  sessionStarted,
  type AuthState,
} from './slice.ts';

const reduce = (
  state: AuthState,
  ...actions: Array<{ type: string; payload?: unknown; meta?: unknown }>
) => actions.reduce((s, a) => authSlice.reducer(s, a), state);

const res: LoginResponse = {
  id: 'u',
  email: 'a@b.co',
  token: 't',
  accessTokenValidity: 900,
  refreshToken: 'r',
  refreshTokenValidity: 60,
  emailVerified: true,
  verificationDaysRemaining: 0,
};
const err = { error: 'Invalid e-mail or password.', code: 'invalid_credentials' as const };
const arg = { email: 'a@b.co', password: 'x' };

describe('auth group (docs/product.md#auth-group)', () => {
  it('login: loading on start, success on answer, failure with the server error', () => {
    let s = reduce(initialAuthState, login.pending('id', arg));
    expect(s.login.status).toBe('loading');
    s = reduce(s, login.fulfilled({ response: res, outcome: 'scheduled' }, 'id', arg));
    expect(s.login).toMatchObject({ status: 'success', data: res });
    expect(s.verificationRequired).toBe(false);
    // Logged in only when the session store says the session was stored.
    expect(s.isLoggedIn).toBe(false);
    s = reduce(s, sessionStarted());
    expect(s.isLoggedIn).toBe(true);
    const f = reduce(
      initialAuthState,
      login.pending('id', arg),
      login.rejected(null, 'id', arg, err),
    );
    expect(f.login).toMatchObject({ status: 'failure', error: err });
  });

  it('a passkey answers in the login group, as the password and the code do (ADR 054)', () => {
    let s = reduce(initialAuthState, signInWithPasskey.pending('id'));
    expect(s.login.status).toBe('loading');
    s = reduce(s, signInWithPasskey.fulfilled({ response: res, outcome: 'scheduled' }, 'id'));
    expect(s.login).toMatchObject({ status: 'success', data: res });
    expect(s.signingIn).toBe('a@b.co');
    const blocked = reduce(
      initialAuthState,
      secondStepWithPasskey.fulfilled({ response: res, outcome: 'blocked' }, 'id', 'challenge'),
    );
    expect(blocked).toMatchObject({ verificationRequired: true, twoFactorChallenge: null });
    const refused = reduce(
      initialAuthState,
      signInWithPasskey.rejected(null, 'id', undefined, err),
    );
    expect(refused.login).toMatchObject({ status: 'failure', error: err });
  });

  it('signup is treated like a login: its answer is the data, the grace rule applies', () => {
    let s = reduce(initialAuthState, signup.pending('id', arg));
    expect(s.signup.status).toBe('loading');
    s = reduce(s, signup.fulfilled({ response: res, outcome: 'scheduled' }, 'id', arg));
    expect(s.signup).toEqual({ status: 'success', data: res, error: null });
    expect(s.verificationRequired).toBe(false);
    const conflict = { error: 'An account with this e-mail already exists.', code: 'email_taken' };
    const f = reduce(s, signup.pending('id', arg), signup.rejected(null, 'id', arg, conflict));
    expect(f.signup).toMatchObject({ status: 'failure', error: conflict });
  });

  it('a failure keeps the API field errors for the form', () => {
    const fields = {
      error: 'Check the fields.',
      code: 'validation_failed',
      fields: { email: 'Bad.' },
    };
    const s = reduce(initialAuthState, login.rejected(null, 'id', arg, fields));
    expect(s.login.error?.fields).toEqual({ email: 'Bad.' });
  });

  it('login blocked by the grace rule is flagged and leaves the user logged out', () => {
    const s = reduce(
      initialAuthState,
      login.fulfilled(
        {
          response: { ...res, emailVerified: false, verificationDaysRemaining: 1 },
          outcome: 'blocked',
        },
        'id',
        arg,
      ),
    );
    expect(s.verificationRequired).toBe(true);
    expect(s.isLoggedIn).toBe(false);
  });

  it('signing in: a scheduled login or sign-up shows as signing in until the session is stored', () => {
    for (const thunk of [login, signup]) {
      let s = reduce(
        initialAuthState,
        thunk.pending('id', arg),
        thunk.fulfilled({ response: res, outcome: 'scheduled' }, 'id', arg),
      );
      expect(s.signingIn).toBe('a@b.co');
      expect(s.isLoggedIn).toBe(false);
      // Pages reset the request groups on mount; the wait for the session is not one of them.
      s = reduce(s, reset());
      expect(s.signingIn).toBe('a@b.co');
      expect(reduce(s, sessionStarted('u'))).toMatchObject({ signingIn: null, isLoggedIn: true });
      expect(reduce(s, sessionEnded())).toMatchObject({ signingIn: null, isLoggedIn: false });
    }
    const blocked = reduce(
      initialAuthState,
      login.fulfilled(
        {
          response: { ...res, emailVerified: false, verificationDaysRemaining: 0 },
          outcome: 'blocked',
        },
        'id',
        arg,
      ),
    );
    expect(blocked.signingIn).toBeNull();
    expect(reduce(initialAuthState, login.rejected(null, 'id', arg, err)).signingIn).toBeNull();
  });

  it('signup and every reset step have their own status', () => {
    const email = { email: 'a@b.co' };
    const code = { email: 'a@b.co', code: '123456' };
    let s = reduce(
      initialAuthState,
      signup.pending('id', arg),
      sendForgotPasswordEmail.pending('id', email),
    );
    expect(s.signup.status).toBe('loading');
    expect(s.forgotPassword.sendEmail.status).toBe('loading');
    expect(s.forgotPassword.checkCode.status).toBe('idle');
    s = reduce(
      s,
      sendForgotPasswordEmail.fulfilled({ message: 'sent' }, 'id', email),
      checkForgotPasswordCode.pending('id', code),
    );
    expect(s.forgotPassword).toMatchObject({
      sendEmail: { status: 'success' },
      checkCode: { status: 'loading' },
      reset: { status: 'idle' },
    });
    s = reduce(
      s,
      checkForgotPasswordCode.rejected(null, 'id', code, { error: 'bad', code: 'invalid_code' }),
    );
    expect(s.forgotPassword.checkCode).toMatchObject({
      status: 'failure',
      error: { code: 'invalid_code' },
    });
    s = reduce(s, resetForgotPassword.pending('id', { ...code, password: 'p' }));
    expect(s.forgotPassword.reset.status).toBe('loading');
  });

  it('change password, activation send and verify follow loading → success/failure', () => {
    const body = { currentPassword: 'a', newPassword: 'b' };
    let s = reduce(
      initialAuthState,
      changePassword.pending('id', body),
      changePassword.fulfilled({ message: 'done' }, 'id', body),
    );
    expect(s.changePassword).toMatchObject({ status: 'success', data: { message: 'done' } });
    s = reduce(
      s,
      sendAccountActivationEmail.pending('id', { email: 'x' }),
      verifyAccountActivation.pending('id', { email: 'x', code: '1' }),
    );
    expect(s.sendAccountActivationEmail.status).toBe('loading');
    expect(s.verifyAccountActivation.status).toBe('loading');
    s = reduce(
      s,
      verifyAccountActivation.rejected(
        null,
        'id',
        { email: 'x', code: '1' },
        { error: 'bad', code: 'invalid_code' },
      ),
    );
    expect(s.verifyAccountActivation.status).toBe('failure');
  });

  it('reset returns every auth group to idle and keeps the login flag', () => {
    let s = reduce(
      initialAuthState,
      sessionStarted(),
      login.rejected(null, 'id', arg, err),
      signup.pending('id', arg),
      sendForgotPasswordEmail.fulfilled({ message: 'm' }, 'id', { email: 'a' }),
      changePassword.pending('id', { currentPassword: 'a', newPassword: 'b' }),
      verifyAccountActivation.pending('id', { email: 'a', code: '1' }),
    );
    s = reduce(s, reset());
    for (const group of [
      s.login,
      s.signup,
      s.changePassword,
      s.sendAccountActivationEmail,
      s.verifyAccountActivation,
      s.forgotPassword.sendEmail,
      s.forgotPassword.checkCode,
      s.forgotPassword.reset,
    ]) {
      expect(group).toEqual({ status: 'idle', data: null, error: null });
    }
    expect(s.isLoggedIn).toBe(true);
    expect(reduce(s, sessionEnded()).isLoggedIn).toBe(false);
  });

  it('hydrate merges server state into client state', () => {
    const s = reduce(initialAuthState, hydrate({ auth: { login: { status: 'success' } } }));
    expect(s.login).toEqual({ status: 'success', data: null, error: null });
    expect(s.signup.status).toBe('idle');
    expect(reduce(s, hydrate({})).login.status).toBe('success');
  });

  it('the session events set the logged-in flag and the user id', () => {
    const s = reduce(initialAuthState, sessionStarted('usr_1'));
    expect(s).toMatchObject({ isLoggedIn: true, userId: 'usr_1', sessionChecked: true });
    expect(reduce(s, sessionEnded())).toMatchObject({ isLoggedIn: false, userId: null });
  });
});
