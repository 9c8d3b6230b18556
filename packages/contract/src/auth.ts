import { z } from 'zod';
import { emailSchema, messageResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { codeMessage, codePattern } from './rules/code.ts';
import { PASSWORD_MAX, validateNewPassword } from './rules/password.ts';
import { twoFactorMessages } from './constants/auth.ts';

export * from './constants/auth.ts';

/** A password being chosen: length and common-password rules. */
export const newPasswordSchema = z.string().superRefine((value, ctx) => {
  const problem = validateNewPassword(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A password being presented: only bounded, never judged (old accounts may predate rules). */
const presentedPassword = z
  .string()
  .min(1, 'Enter your password.')
  .max(PASSWORD_MAX, 'Password is too long.');

const codeSchema = z.string().trim().regex(codePattern, codeMessage);

export const credentialsSchema = z.object({ email: emailSchema, password: presentedPassword });
export const signupSchema = z.object({ email: emailSchema, password: newPasswordSchema });

export const loginResponse = z
  .object({
    id: z.string(),
    email: z.string(),
    token: z.string(),
    /** Seconds. */
    accessTokenValidity: z.number().int(),
    refreshToken: z.string(),
    /** Minutes. */
    refreshTokenValidity: z.number().int(),
    emailVerified: z.boolean(),
    /** Days left to verify the e-mail before sign-in is blocked; 0 once verified or expired. */
    verificationDaysRemaining: z.number().int(),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponse>;

/** A 6-digit code from an authenticator app (RFC 6238). */
export const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, twoFactorMessages.codeFormat);
/** A TOTP code or a recovery code (`xxxxx-xxxxx`, case and dash optional). */
const secondFactorSchema = z
  .string()
  .trim()
  .min(6, twoFactorMessages.codeFormat)
  .max(20, twoFactorMessages.codeFormat);

/** Login with 2FA on: no session yet, only a short-lived signed challenge for the second step. */
export const twoFactorChallengeResponse = z
  .object({
    twoFactorRequired: z.literal(true),
    challenge: z.string(),
    /** Seconds the challenge stays valid. */
    expiresIn: z.number().int(),
    /** The account has a passkey: the second step may use it instead of a code (`/auth/passkey/second-step`). */
    passkeys: z.boolean(),
  })
  .meta({ id: 'TwoFactorChallenge' });
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeResponse>;
/**
 * What a password login answers: a session, or the challenge. Told apart by `twoFactorRequired`, so the
 * compiled serialiser writes either without falling back to zod (ADR 017).
 */
export const loginAnswerSchema = z.discriminatedUnion('twoFactorRequired', [
  loginResponse.extend({ twoFactorRequired: z.literal(false) }),
  twoFactorChallengeResponse,
]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export const isTwoFactorChallenge = (a: LoginAnswer): a is TwoFactorChallenge =>
  'twoFactorRequired' in a && a.twoFactorRequired === true;

export const twoFactorStatus = z
  .object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() })
  .meta({ id: 'TwoFactorStatus' });
export const twoFactorSetupResponse = z.object({
  /** Base32, for typing into the app when the QR code cannot be scanned. */
  secret: z.string(),
  /** `otpauth://totp/...`, what the QR code encodes. */
  uri: z.string(),
});
export const twoFactorConfirmResponse = z.object({
  message: z.string(),
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export const twoFactorDisableSchema = z
  .object({ code: totpCodeSchema.optional(), password: presentedPassword.optional() })
  .refine((b) => b.code !== undefined || b.password !== undefined, {
    message: twoFactorMessages.disableNeedsProof,
    path: ['code'],
  });
export const twoFactorLoginSchema = z.object({
  challenge: z.string().min(1).max(500),
  code: secondFactorSchema,
});

export const refreshRequest = z.object({
  user_id: z.string().min(1).max(64),
  refresh_token: z.string().min(1).max(200),
});

export const refreshResponse = z
  .object({
    authentication_token: z.string(),
    /** Minutes. */
    access_token_validity: z.number().int(),
    refresh_token: z.string(),
    /** Minutes. */
    refresh_token_validity: z.number().int(),
  })
  .meta({ id: 'RefreshResponse' });
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const emailOnly = z.object({ email: emailSchema });
export const emailAndCode = z.object({ email: emailSchema, code: codeSchema });
export const resetPasswordSchema = z.object({
  email: emailSchema,
  code: codeSchema,
  password: newPasswordSchema,
});
export const changePasswordSchema = z.object({
  currentPassword: presentedPassword,
  newPassword: newPasswordSchema,
});

export const changePasswordResponse = z.object({
  message: z.string(),
  token: z.string(),
  accessTokenValidity: z.number().int(),
  refreshToken: z.string(),
  refreshTokenValidity: z.number().int(),
});

export const verifyAccountResponse = z.object({
  message: z.string(),
  emailVerified: z.literal(true),
});

export const authRoutes = {
  signupBuyer: defineRoute({
    method: 'POST',
    path: '/auth/signup/buyer',
    auth: 'none',
    summary: 'Create a buyer account; e-mails an activation code and signs the buyer in.',
    tags: ['auth'],
    status: 201,
    body: signupSchema,
    response: loginResponse,
  }),
  login: defineRoute({
    method: 'POST',
    path: '/auth/login',
    auth: 'none',
    summary:
      'Sign in with e-mail and password. With two-factor authentication on, answers a challenge for `/auth/login/two-factor` instead of a session.',
    tags: ['auth'],
    status: 200,
    body: credentialsSchema,
    response: loginAnswerSchema,
  }),
  loginTwoFactor: defineRoute({
    method: 'POST',
    path: '/auth/login/two-factor',
    auth: 'none',
    summary:
      "Second sign-in step: the login's challenge and a code from the authenticator app (or a recovery code, used up).",
    tags: ['auth'],
    status: 200,
    body: twoFactorLoginSchema,
    response: loginResponse,
  }),
  twoFactorStatus: defineRoute({
    method: 'GET',
    path: '/api/v1/two-factor',
    auth: 'bearer',
    summary: 'Whether two-factor authentication is on, and how many recovery codes are left.',
    tags: ['auth'],
    status: 200,
    response: twoFactorStatus,
  }),
  twoFactorSetup: defineRoute({
    method: 'POST',
    path: '/api/v1/two-factor/setup',
    auth: 'bearer',
    summary:
      'Start enrolment: a new secret and its otpauth URI. Nothing is on until `/api/v1/two-factor/confirm` gets a code.',
    tags: ['auth'],
    status: 200,
    response: twoFactorSetupResponse,
  }),
  twoFactorConfirm: defineRoute({
    method: 'POST',
    path: '/api/v1/two-factor/confirm',
    auth: 'bearer',
    summary: 'Turn two-factor on with a first code; answers 10 recovery codes, shown this once.',
    tags: ['auth'],
    status: 200,
    body: z.object({ code: totpCodeSchema }),
    response: twoFactorConfirmResponse,
  }),
  twoFactorDisable: defineRoute({
    method: 'POST',
    path: '/api/v1/two-factor/disable',
    auth: 'bearer',
    summary: 'Turn two-factor off, with a current code or the password.',
    tags: ['auth'],
    status: 200,
    body: twoFactorDisableSchema,
    response: messageResponse,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/auth/logout',
    auth: 'none',
    summary: 'Revoke the refresh token (and its rotation family) of this session.',
    tags: ['auth'],
    status: 200,
    body: z.object({ refresh_token: z.string().min(1).max(200) }),
    response: messageResponse,
  }),
  refreshToken: defineRoute({
    method: 'POST',
    path: '/refresh_token',
    auth: 'refresh',
    summary:
      'Rotate the refresh token. The refresh token goes both in the body and as the bearer token. Reusing a rotated token revokes its whole family.',
    tags: ['auth'],
    status: 200,
    body: refreshRequest,
    response: refreshResponse,
  }),
  sendForgotPasswordEmail: defineRoute({
    method: 'POST',
    path: '/api/v1/password/send-forgot-password-email',
    auth: 'none',
    summary: 'E-mail a 6-digit reset code. Answers the same whether or not the account exists.',
    tags: ['auth'],
    status: 200,
    body: emailOnly,
    response: messageResponse,
  }),
  checkForgotPasswordCode: defineRoute({
    method: 'POST',
    path: '/api/v1/password/check-forgot-password-code',
    auth: 'none',
    summary: 'Check a reset code without using it up.',
    tags: ['auth'],
    status: 200,
    body: emailAndCode,
    response: messageResponse,
  }),
  resetForgotPassword: defineRoute({
    method: 'POST',
    path: '/api/v1/password/reset-forgot-password',
    auth: 'none',
    summary: 'Set a new password with a reset code; signs out every session.',
    tags: ['auth'],
    status: 200,
    body: resetPasswordSchema,
    response: messageResponse,
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/api/v1/password/reset-request',
    auth: 'bearer',
    summary:
      'Change the password. Revokes every refresh token and returns a fresh pair for this session.',
    tags: ['auth'],
    status: 200,
    body: changePasswordSchema,
    response: changePasswordResponse,
  }),
  sendAccountVerificationEmail: defineRoute({
    method: 'POST',
    path: '/api/v1/user/send-account-verification-email',
    auth: 'none',
    summary: 'E-mail a new activation code. Answers the same whether or not the account exists.',
    tags: ['auth'],
    status: 200,
    body: emailOnly,
    response: messageResponse,
  }),
  verifyAccountCode: defineRoute({
    method: 'POST',
    path: '/api/v1/user/verify-account-code',
    auth: 'none',
    summary: 'Activate the account with the e-mailed code.',
    tags: ['auth'],
    status: 200,
    body: emailAndCode,
    response: verifyAccountResponse,
  }),
} as const;
