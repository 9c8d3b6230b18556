import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { LoginResponse } from '@tradeshelf/contract';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { addRequestCases, idle, type RequestState } from '../../lib/request-state.ts';
import {
  changePassword,
  checkForgotPasswordCode,
  login,
  loginTwoFactor,
  resetForgotPassword,
  sendAccountActivationEmail,
  sendForgotPasswordEmail,
  signup,
  verifyAccountActivation,
  type SignInResult,
} from './api.ts';

type Message = { message: string };

/** The auth group (docs/product.md#request-groups). */
export interface AuthState {
  /** `data` null: the password was right and a second factor is asked for (`twoFactorChallenge`). */
  login: RequestState<LoginResponse | null>;
  signup: RequestState<LoginResponse | null>;
  twoFactorChallenge: string | null;
  forgotPassword: {
    sendEmail: RequestState<Message>;
    checkCode: RequestState<Message>;
    reset: RequestState<Message>;
  };
  changePassword: RequestState<Message>;
  sendAccountActivationEmail: RequestState<Message>;
  verifyAccountActivation: RequestState<Message>;
  isLoggedIn: boolean;
  /** The signed-in user's id (from the stored session), null when logged out. */
  userId: string | null;
  /** The stored session has been read on this client (logged-in checks are meaningful). */
  sessionChecked: boolean;
  /** A login (or sign-up) answered but the §4 grace rule kept the session out of storage. */
  verificationRequired: boolean;
  /**
   * The e-mail of a login (or sign-up) that succeeded and is waiting out the §4 delay before its
   * session is stored: the app shows it as signed in already, not as a stalled form. Not a request
   * group, so `reset` keeps it; the stored (or cleared) session ends it.
   */
  signingIn: string | null;
}

const requests = () => ({
  login: idle<LoginResponse | null>(),
  signup: idle<LoginResponse | null>(),
  forgotPassword: {
    sendEmail: idle<Message>(),
    checkCode: idle<Message>(),
    reset: idle<Message>(),
  },
  changePassword: idle<Message>(),
  sendAccountActivationEmail: idle<Message>(),
  verifyAccountActivation: idle<Message>(),
});

export const initialAuthState: AuthState = {
  ...requests(),
  isLoggedIn: false,
  userId: null,
  sessionChecked: false,
  verificationRequired: false,
  signingIn: null,
  twoFactorChallenge: null,
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** docs/product.md#auth-group: returns every auth request group to idle. */
    reset: (state) => ({
      ...state,
      ...requests(),
      verificationRequired: false,
      twoFactorChallenge: null,
    }),
    /** A valid session is stored: the user is logged in (docs/product.md#sessions). */
    sessionStarted: {
      reducer: (state, action: PayloadAction<string | null>) => {
        state.isLoggedIn = true;
        state.userId = action.payload;
        state.sessionChecked = true;
        state.signingIn = null;
      },
      prepare: (userId: string | null = null) => ({ payload: userId }),
    },
    /** No valid session (logout, expiry, failed refresh): the user is logged out. */
    sessionEnded: (state) => {
      state.isLoggedIn = false;
      state.userId = null;
      state.sessionChecked = true;
      state.signingIn = null;
    },
  },
  extraReducers: (b) => {
    const answer = { map: (p: SignInResult) => p.response };
    const message = { map: (p: { message: string }) => ({ message: p.message }) };
    addRequestCases(b, login, (s) => s.login, answer);
    addRequestCases(b, loginTwoFactor, (s) => s.login, answer);
    addRequestCases(b, signup, (s) => s.signup, answer);
    addRequestCases(b, sendForgotPasswordEmail, (s) => s.forgotPassword.sendEmail, message);
    addRequestCases(b, checkForgotPasswordCode, (s) => s.forgotPassword.checkCode, message);
    addRequestCases(b, resetForgotPassword, (s) => s.forgotPassword.reset, message);
    addRequestCases(b, changePassword, (s) => s.changePassword, message);
    addRequestCases(b, sendAccountActivationEmail, (s) => s.sendAccountActivationEmail, message);
    addRequestCases(b, verifyAccountActivation, (s) => s.verifyAccountActivation, message);
    b.addCase(hydrate, (s, a) => mergeState(s, a.payload.auth))
      // docs/product.md#verification-grace: the answer came, but the session was not stored.
      .addMatcher(isAnyOf(login.pending, signup.pending), (s) => {
        s.verificationRequired = false;
      })
      .addMatcher(isAnyOf(login.fulfilled, signup.fulfilled, loginTwoFactor.fulfilled), (s, a) => {
        s.verificationRequired = a.payload.outcome === 'blocked';
        if (a.payload.outcome === 'scheduled') s.signingIn = a.payload.response.email;
        if (a.payload.outcome === 'two-factor') s.twoFactorChallenge = a.payload.challenge;
        else s.twoFactorChallenge = null;
      });
  },
});

export const { reset, sessionStarted, sessionEnded } = authSlice.actions;
