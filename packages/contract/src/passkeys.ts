// Passkeys (WebAuthn): the account's list and its changes, the second sign-in step, and signing in
// without a password (issue 33, ADR 054). The ceremonies' JSON is WebAuthn's own (Level 3's
// `toJSON()` shapes), bounded here so a request cannot carry more than an authenticator sends.
import { z } from 'zod';
import { isoDateTime, messageResponse, textField } from './common.ts';
import { defineRoute } from './route.ts';
import { accountConfirmSchema } from './account-data.ts';
import { loginResponse } from './auth.ts';
import { PASSKEY_NAME_MAX, passkeyMessages } from './constants/passkeys.ts';

export * from './constants/passkeys.ts';

/** base64url without padding, as WebAuthn's JSON writes binary. */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Not base64url.');

/** A credential id is at most 1023 bytes (WebAuthn §5.8.3): 1364 characters of base64url. */
const credentialId = b64url(1364);

const transports = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const credentialDescriptor = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(transports).optional(),
});

/** `navigator.credentials.create()` options, as the browser library takes them. */
export const passkeyCreationOptions = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
    timeout: z.number().int(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']),
    excludeCredentials: z.array(credentialDescriptor),
    authenticatorSelection: z.object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    }),
    extensions: z.object({ credProps: z.boolean().optional() }),
    hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])),
  })
  .meta({ id: 'PasskeyCreationOptions' });
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** `navigator.credentials.get()` options. */
export const passkeyRequestOptions = z
  .object({
    challenge: z.string(),
    rpId: z.string(),
    timeout: z.number().int(),
    userVerification: z.enum(['discouraged', 'preferred', 'required']),
    /** Empty for signing in without a password: the authenticator offers the site's passkeys. */
    allowCredentials: z.array(credentialDescriptor),
  })
  .meta({ id: 'PasskeyRequestOptions' });
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

/** How every `PublicKeyCredential.toJSON()` starts, made or used. */
const credentialHead = { id: credentialId, rawId: credentialId, type: z.literal('public-key') };

/** What `navigator.credentials.create()` gave, as `PublicKeyCredential.toJSON()` writes it. */
export const passkeyRegistrationSchema = z.object({
  ...credentialHead,
  response: z.object({
    clientDataJSON: b64url(4096),
    /** With attestation "none" a few hundred bytes; a certificate chain stays well under this. */
    attestationObject: b64url(16_384),
    authenticatorData: b64url(8192).optional(),
    /** Browsers may name transports newer than this contract: unknown ones are not kept. */
    transports: z.array(z.string().max(32)).max(16).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({
    credProps: z.object({ rk: z.boolean().optional() }).optional(),
  }),
});
export type PasskeyRegistration = z.infer<typeof passkeyRegistrationSchema>;

/** What `navigator.credentials.get()` gave. */
export const passkeyAssertionSchema = z.object({
  ...credentialHead,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    /** The account's opaque handle (never its id or e-mail); a discoverable passkey sends it. */
    userHandle: b64url(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  /** None are asked for; what a browser adds unasked is dropped. */
  clientExtensionResults: z.object({ appid: z.boolean().optional() }),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

export const passkeyNameSchema = textField({
  required: passkeyMessages.nameRequired,
  max: PASSKEY_NAME_MAX,
  tooLong: passkeyMessages.nameTooLong,
});

export const passkeySummary = z
  .object({
    /** Opaque; what rename and remove take. */
    id: z.string(),
    name: z.string(),
    createdAt: isoDateTime,
    /** Null until it first signs in. */
    lastUsedAt: isoDateTime.nullable(),
    /** Backed up by its provider (iCloud Keychain, Google Password Manager …), so on other devices too. */
    synced: z.boolean(),
  })
  .meta({ id: 'Passkey' });
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const passkeyRoutes = {
  passkeys: defineRoute({
    method: 'GET',
    path: '/api/v1/account/passkeys',
    auth: 'bearer',
    summary: 'The account’s passkeys: name, when each was added and last signed in, synced or not.',
    tags: ['account'],
    status: 200,
    response: z.object({ passkeys: z.array(passkeySummary) }),
  }),
  passkeyRegistrationOptions: defineRoute({
    method: 'POST',
    path: '/api/v1/account/passkeys/options',
    auth: 'bearer',
    summary:
      'Start adding a passkey, with the password (and a two-factor code when on): the options for `navigator.credentials.create()`. Their challenge works once, for 3 minutes.',
    tags: ['account'],
    status: 200,
    body: accountConfirmSchema,
    response: z.object({ options: passkeyCreationOptions }),
  }),
  passkeyAdd: defineRoute({
    method: 'POST',
    path: '/api/v1/account/passkeys',
    auth: 'bearer',
    summary:
      'Finish adding a passkey: its name and what the authenticator answered. The owner is mailed.',
    tags: ['account'],
    status: 201,
    body: z.object({ name: passkeyNameSchema, credential: passkeyRegistrationSchema }),
    response: z.object({ message: z.string(), passkey: passkeySummary }),
  }),
  passkeyRename: defineRoute({
    method: 'PATCH',
    path: '/api/v1/account/passkeys/{id}',
    auth: 'bearer',
    summary: 'Rename a passkey. Another account’s id answers 404.',
    tags: ['account'],
    status: 200,
    params: z.object({ id: z.string().min(1).max(64) }),
    body: z.object({ name: passkeyNameSchema }),
    response: z.object({ message: z.string(), passkey: passkeySummary }),
  }),
  passkeyRemove: defineRoute({
    method: 'POST',
    path: '/api/v1/account/passkeys/{id}/delete',
    auth: 'bearer',
    summary:
      'Remove a passkey, with the password (and a two-factor code when on); it signs in no more. The owner is mailed. Another account’s id answers 404.',
    tags: ['account'],
    status: 200,
    params: z.object({ id: z.string().min(1).max(64) }),
    body: accountConfirmSchema,
    response: messageResponse,
  }),
  passkeyLoginOptions: defineRoute({
    method: 'POST',
    path: '/auth/passkey/options',
    auth: 'none',
    summary:
      'Start signing in with a passkey, no e-mail or password: options for `navigator.credentials.get()` with no credential named, the same for everyone. The challenge works once, for 3 minutes.',
    tags: ['auth'],
    status: 200,
    response: z.object({ options: passkeyRequestOptions }),
  }),
  passkeyLogin: defineRoute({
    method: 'POST',
    path: '/auth/passkey',
    auth: 'none',
    summary:
      'Sign in with a passkey: the authenticator’s answer to `/auth/passkey/options`. Opens the session a password login does (the passkey is both factors).',
    tags: ['auth'],
    status: 200,
    body: z.object({ credential: passkeyAssertionSchema }),
    response: loginResponse,
  }),
  passkeySecondStepOptions: defineRoute({
    method: 'POST',
    path: '/auth/passkey/second-step/options',
    auth: 'none',
    summary:
      'Second sign-in step with a passkey instead of a code: the login’s challenge in, options naming the account’s passkeys out.',
    tags: ['auth'],
    status: 200,
    body: z.object({ challenge: z.string().min(1).max(500) }),
    response: z.object({ options: passkeyRequestOptions }),
  }),
  passkeySecondStep: defineRoute({
    method: 'POST',
    path: '/auth/passkey/second-step',
    auth: 'none',
    summary:
      'Second sign-in step with a passkey: the login’s challenge and the authenticator’s answer. Issues the session exactly as a code does.',
    tags: ['auth'],
    status: 200,
    body: z.object({ challenge: z.string().min(1).max(500), credential: passkeyAssertionSchema }),
    response: loginResponse,
  }),
} as const;
