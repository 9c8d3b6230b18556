import { z } from 'zod';
import { emailSchema, idSchema, isoDateTime, messageResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { PASSWORD_MAX } from './rules/password.ts';
import { totpCodeSchema } from './auth.ts';
import { accountMessages } from './constants/account.ts';

export * from './constants/account.ts';

/** One active sign-in (a refresh-token family), as the account page lists it. */
export const accountSession = z
  .object({
    /** Opaque; the id `DELETE /api/v1/account/sessions/{id}` takes. */
    id: z.string(),
    /** Read from the browser's User-Agent, e.g. "Chrome on Windows". */
    device: z.string(),
    /** The address it was last seen from, masked (`203.0.113.x`). */
    address: z.string(),
    /** Where that address is ("Germany"), by the IP database (DB-IP); null when unknown or private. */
    place: z.string().nullable(),
    createdAt: isoDateTime,
    lastSeenAt: isoDateTime,
    /** The sign-in this request came from. */
    current: z.boolean(),
  })
  .meta({ id: 'AccountSession' });
export type AccountSession = z.infer<typeof accountSession>;

export const accountSettings = z
  .object({
    /** When the username may next change; null when it may now. */
    usernameChangeableFrom: isoDateTime.nullable(),
    /** A change of e-mail waiting for its link to be opened. */
    pendingEmail: z.object({ email: z.string(), expiresAt: isoDateTime }).nullable(),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.infer<typeof accountSettings>;

const presentedPassword = z
  .string()
  .min(1, 'Enter your password.')
  .max(PASSWORD_MAX, 'Password is too long.');

export const emailChangeSchema = z.object({
  email: emailSchema,
  password: presentedPassword,
  /** Required when two-factor authentication is on. */
  twoFactorCode: totpCodeSchema.optional(),
});
export const emailConfirmSchema = z.object({
  token: z.string().trim().min(20, accountMessages.emailLinkInvalid).max(200),
});

export const accountRoutes = {
  accountSessions: defineRoute({
    method: 'GET',
    path: '/api/v1/account/sessions',
    auth: 'bearer',
    summary:
      'The signed-in user’s active sign-ins: device, masked address, when each started and was last seen, and which is this one.',
    tags: ['account'],
    status: 200,
    response: z.object({ sessions: z.array(accountSession) }),
  }),
  accountSessionEnd: defineRoute({
    method: 'DELETE',
    path: '/api/v1/account/sessions/{id}',
    auth: 'bearer',
    summary:
      'Log one sign-in out: its refresh token stops working and its access tokens are refused within 5 s on every node. Another user’s id answers 404.',
    tags: ['account'],
    status: 200,
    params: z.object({ id: idSchema }),
    response: messageResponse,
  }),
  accountSessionsEndOthers: defineRoute({
    method: 'POST',
    path: '/api/v1/account/sessions/end-others',
    auth: 'bearer',
    summary: 'Log out every sign-in but this one.',
    tags: ['account'],
    status: 200,
    response: z.object({ message: z.string(), ended: z.number().int() }),
  }),
  accountSettings: defineRoute({
    method: 'GET',
    path: '/api/v1/account/settings',
    auth: 'bearer',
    summary: 'When the username may next change, and an e-mail change waiting to be confirmed.',
    tags: ['account'],
    status: 200,
    response: accountSettings,
  }),
  accountEmailChange: defineRoute({
    method: 'POST',
    path: '/api/v1/account/email',
    auth: 'bearer',
    summary:
      'Ask to change the e-mail address, with the password (and a two-factor code when on). A link goes to the new address, a notice to the current one; nothing changes until the link is opened. The answer is the same whether or not the new address has an account.',
    tags: ['account'],
    status: 202,
    body: emailChangeSchema,
    response: messageResponse,
  }),
  accountEmailConfirm: defineRoute({
    method: 'POST',
    path: '/api/v1/account/email/confirm',
    auth: 'none',
    summary: 'Confirm an e-mail change with the mailed link’s token (24 hours, single use).',
    tags: ['account'],
    status: 200,
    body: emailConfirmSchema,
    response: z.object({ message: z.string(), email: z.string() }),
  }),
  twoFactorRecoveryCodes: defineRoute({
    method: 'POST',
    path: '/api/v1/two-factor/recovery-codes',
    auth: 'bearer',
    summary:
      'Replace the recovery codes with a new set of 10, given a current authenticator code; the old set stops working. Shown this once.',
    tags: ['auth'],
    status: 200,
    body: z.object({ code: totpCodeSchema }),
    response: z.object({ message: z.string(), recoveryCodes: z.array(z.string()) }),
  }),
} as const;
