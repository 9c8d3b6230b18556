import { bigint, boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, refColumn, ts } from '../../db/columns.ts';

/** Opaque refresh tokens, stored as SHA-256 hashes; one family per sign-in, rotated on each use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: idColumn(),
    userId: userColumn(),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The client that got this token (ADR 058): the device list reads the family's newest row. */
    userAgent: text('user_agent'),
    /** The client's address, masked (`203.0.113.x`): enough to recognise, not to locate. */
    address: text('address'),
    /** Where the full address was, from GEOIP_DATABASE ("Germany"); null when unknown (ADR 065). */
    place: text('place'),
    /** HMAC of user agent and address: the "device" a new-sign-in e-mail is about. */
    deviceHash: text('device_hash'),
  },
  (t) => [
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

/** Short-lived single-use e-mail codes (activation, password reset), stored as HMACs; guesses are counted by the rate limiter. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: idColumn(),
    userId: userColumn(),
    purpose: text('purpose', { enum: ['activation', 'password_reset'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_codes_user_purpose_idx').on(t.userId, t.purpose)],
);

/**
 * Sign-in families whose access tokens are refused until `expiresAt` (the longest one of them can
 * still live): refresh-token reuse, logout, password change or reset. Every API node keeps a copy
 * in memory, re-read at most a few seconds old (ADR 021).
 */
export const deniedSessions = pgTable(
  'denied_sessions',
  {
    familyId: text('family_id').primaryKey(),
    userId: text('user_id').notNull(),
    reason: text('reason', { enum: ['reuse', 'logout', 'password', 'revoked'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('denied_sessions_created_idx').on(t.createdAt),
    index('denied_sessions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * An account's authenticator-app secret (ADR 054), sealed (AES-GCM) at rest. On only once
 * `enabledAt` is set; `lastStep` is the newest TOTP step used, so a code works once.
 */
export const twoFactorSecrets = pgTable('two_factor_secrets', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: ts('enabled_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** One-time recovery codes, stored as HMACs (they are random, so a slow hash adds nothing). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: idColumn(),
    userId: userColumn(),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

/**
 * Devices (user agent + address, as an HMAC) an account has signed in from (ADR 058): a sign-in
 * from one not listed here mails the owner, unless the account has no history yet.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: userColumn(),
    deviceHash: text('device_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

/**
 * Asked-for e-mail changes (ADR 058): the link's token as a SHA-256 hash, 24 hours, single use.
 * A newer request retires the older one.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: idColumn(),
    userId: userColumn(),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);

/**
 * Passkeys (WebAuthn credentials, ADR 054): the public key (COSE, base64url) and the signature
 * counter an authenticator reports, which only moves forward. `credentialId` is the
 * authenticator's; `id` is ours, the one the account page names.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: idColumn(),
    userId: refColumn('user_id', () => users.id),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    /** Backed up by a passkey provider (synced to the owner's other devices). */
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * The WebAuthn user handle of each account with passkeys: 32 random bytes, so an authenticator
 * (and whoever reads it) learns neither the account's id nor its e-mail.
 */
export const passkeyHandles = pgTable('passkey_handles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  handle: text('handle').notNull().unique(),
});

/**
 * Ceremony challenges, kept on the server: found by the SHA-256 of the challenge the client
 * signed, used up by the delete that finds them, so an answer works once and only before
 * `expiresAt`. `userId` is null for signing in without a password.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'second-step', 'sign-in'] }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);
