// Use case: passkeys (WebAuthn, ADR 054) with @simplewebauthn/server. Adding and removing one asks
// what other sensitive changes ask (the password, and a code when two-factor is on); a passkey then
// stands in for the code at the second sign-in step, or signs in alone, without a password.
// Every ceremony's challenge is kept here, used up by its first answer, for 3 minutes at most.
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  PASSKEYS_MAX,
  passkeyMessages,
  type AccountConfirm,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRegistration,
  type PasskeyRequestOptions,
  type PasskeySummary,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import { minutes, newId, safeEqual, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { loginIpRule, rules } from '../../platform/rate-limit.ts';
import * as users from '../users/index.ts';
import { confirmOwner } from './account-data.ts';
import { passkeyMail } from './notices.ts';
import * as repo from './passkey-repository.ts';
import * as twoFactor from './two-factor.ts';

const RP_NAME = 'Tradeshelf';
/** How long the browser waits for the person; the challenge lives a minute longer, for the trip back. */
const CEREMONY_MS = 2 * 60_000;
const CHALLENGE_TTL_MS = CEREMONY_MS + minutes(1);
/** EdDSA, ES256, RS256: what authenticators make (ES256 above all). */
const ALGORITHMS = [-8, -7, -257];
const TRANSPORTS = new Set<string>([
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
]);

/**
 * The origin a passkey is bound to and its relying-party id (the host): PASSKEY_ORIGIN, else the
 * public URL. Never the request's Host: anyone can write that (ADR 049).
 */
export function relyingParty(config: Pick<Config, 'PASSKEY_ORIGIN' | 'PUBLIC_URL' | 'PORT'>) {
  const origin = new URL(config.PASSKEY_ORIGIN ?? publicOrigin(config)).origin;
  return { origin, id: new URL(origin).hostname };
}

const notAccepted = () => new AppError('invalid_credentials', passkeyMessages.notAccepted);
const expired = () => new AppError('invalid_token', passkeyMessages.expired);
const notFound = () => new AppError('not_found', passkeyMessages.notFound);

type Transport = NonNullable<PasskeyCreationOptions['excludeCredentials'][number]['transports']>;
const knownTransports = (list: readonly string[] | undefined): Transport =>
  (list ?? []).filter((t) => TRANSPORTS.has(t)) as Transport;

export function summaryOf(row: repo.PasskeyRow): PasskeySummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.backedUp,
  };
}

/** Keeps a ceremony's challenge until its answer comes back, or for CHALLENGE_TTL_MS. */
async function keepChallenge(
  deps: AppDeps,
  challenge: string,
  purpose: repo.ChallengePurpose,
  userId: string | null,
) {
  await repo.saveChallenge(deps.database.db, {
    challengeHash: sha256(challenge),
    purpose,
    userId,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

/**
 * The challenge an answer signed, used up whatever comes next: a replayed answer, or one to a
 * challenge that expired or was made for another purpose or account, is refused here, before any
 * signature is checked.
 */
async function spendChallenge(
  deps: AppDeps,
  clientDataJSON: string,
  purpose: repo.ChallengePurpose,
  userId: string | null,
): Promise<string> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw notAccepted();
  }
  if (typeof challenge !== 'string' || challenge.length > 512) throw notAccepted();
  if (!(await repo.takeChallenge(deps.database.db, sha256(challenge), purpose, userId)))
    throw expired();
  return challenge;
}

export async function list(deps: AppDeps, userId: string) {
  const rows = await repo.listOf(deps.database.db, userId);
  return { passkeys: rows.map(summaryOf) };
}

/** Step one of adding a passkey: the owner proven, the options `navigator.credentials.create()` takes. */
export async function registrationOptions(
  deps: AppDeps,
  userId: string,
  proof: AccountConfirm,
): Promise<{ options: PasskeyCreationOptions }> {
  await deps.limiter.consume([{ rule: rules.passkeyChanges, key: userId }]);
  const user = await confirmOwner(deps, userId, proof);
  const db = deps.database.db;
  const existing = await repo.listOf(db, userId);
  if (existing.length >= PASSKEYS_MAX) throw new AppError('conflict', passkeyMessages.tooMany);
  const handle = await repo.handleOf(db, userId, randomBytes(32).toString('base64url'));
  const rp = relyingParty(deps.config);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    // What the person's passkey manager lists it under; it is not sent back when signing in.
    userName: user.email,
    userDisplayName: user.username ?? user.email,
    userID: isoBase64URL.toBuffer(handle),
    timeout: CEREMONY_MS,
    attestationType: 'none',
    // One passkey per authenticator: one already on the account is not made twice.
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: knownTransports(p.transports),
    })),
    // Discoverable, so it can sign in without an e-mail; verified (PIN, fingerprint), so it is
    // two factors on its own.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await keepChallenge(deps, options.challenge, 'register', userId);
  return { options: options as PasskeyCreationOptions };
}

/** Step two: the authenticator's answer checked and the passkey stored; the owner is mailed. */
export async function add(
  deps: AppDeps,
  userId: string,
  body: { name: string; credential: PasskeyRegistration },
) {
  const expected = await spendChallenge(
    deps,
    body.credential.response.clientDataJSON,
    'register',
    userId,
  );
  const rp = relyingParty(deps.config);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response: body.credential as RegistrationResponseJSON,
      expectedChallenge: expected,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!verified.verified) throw new Error('not verified');
    info = verified.registrationInfo;
  } catch {
    throw new AppError('bad_request', passkeyMessages.notAdded);
  }
  const db = deps.database.db;
  const { row, mailId } = await db.transaction(async (tx) => {
    // One add at a time per account, so the cap holds against requests racing.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`passkeys:${userId}`}, 0))`,
    );
    if ((await repo.countOf(tx, userId)) >= PASSKEYS_MAX)
      throw new AppError('conflict', passkeyMessages.tooMany);
    const row = await repo.insert(tx, {
      id: newId('pk'),
      userId,
      credentialId: info.credential.id,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: knownTransports(body.credential.response.transports),
      name: body.name,
      backedUp: info.credentialBackedUp,
    });
    if (!row) throw new AppError('conflict', passkeyMessages.alreadyAdded);
    const mailId = await twoFactor.notify(deps, tx, userId, (to, origin) =>
      passkeyMail(to, origin, body.name, true),
    );
    return { row, mailId };
  });
  await twoFactor.sendNotice(deps, mailId);
  return { message: passkeyMessages.added, passkey: summaryOf(row) };
}

export async function rename(deps: AppDeps, userId: string, id: string, name: string) {
  const row = await repo.rename(deps.database.db, userId, id, name);
  if (!row) throw notFound();
  return { message: passkeyMessages.renamed, passkey: summaryOf(row) };
}

/** Removing one asks for the owner again, as adding does; the owner is mailed. */
export async function remove(deps: AppDeps, userId: string, id: string, proof: AccountConfirm) {
  await deps.limiter.consume([{ rule: rules.passkeyChanges, key: userId }]);
  await confirmOwner(deps, userId, proof);
  const mailId = await deps.database.db.transaction(async (tx) => {
    const row = await repo.remove(tx, userId, id);
    if (!row) throw notFound();
    return twoFactor.notify(deps, tx, userId, (to, origin) =>
      passkeyMail(to, origin, row.name, false),
    );
  });
  await twoFactor.sendNotice(deps, mailId);
  return { message: passkeyMessages.removed };
}

/**
 * Checks an assertion against the stored passkey and records the use. The library refuses a
 * counter that did not move forward; the conditional update refuses one that another request
 * moved past meanwhile.
 */
async function verifyUse(
  deps: AppDeps,
  row: repo.PasskeyRow,
  credential: PasskeyAssertion,
  expectedChallenge: string,
  requireUserVerification: boolean,
): Promise<void> {
  const rp = relyingParty(deps.config);
  let info;
  try {
    const verified = await verifyAuthenticationResponse({
      response: credential as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: row.credentialId,
        publicKey: isoBase64URL.toBuffer(row.publicKey),
        counter: row.counter,
        transports: knownTransports(row.transports),
      },
      requireUserVerification,
    });
    if (!verified.verified) throw new Error('not verified');
    info = verified.authenticationInfo;
  } catch {
    throw notAccepted();
  }
  const taken = await repo.recordUse(
    deps.database.db,
    row.id,
    info.newCounter,
    info.credentialBackedUp,
  );
  if (!taken) throw notAccepted();
}

/** A user handle, when the authenticator sent one, must be the account's own. */
async function handleMatches(deps: AppDeps, userId: string, sent: string | undefined) {
  if (sent === undefined) return true;
  const handle = await repo.existingHandleOf(deps.database.db, userId);
  return handle !== null && safeEqual(handle, sent);
}

/**
 * Signing in without a password, step one: the same options for everyone (no account is named,
 * so none can be probed), counted against the address as a password attempt is.
 */
export async function signInOptions(
  deps: AppDeps,
  ip: string,
): Promise<{ options: PasskeyRequestOptions }> {
  await deps.limiter.consume([{ rule: loginIpRule(deps.config), key: ip }]);
  return requestOptions(deps, 'sign-in', null, [], 'required');
}

/**
 * Step two: the account whose passkey answered. The passkey must be discoverable (it names its
 * account's handle) and verified its person; it is then both factors, so two-factor adds no step.
 */
export async function signInUser(
  deps: AppDeps,
  credential: PasskeyAssertion,
): Promise<users.Account> {
  const expected = await spendChallenge(deps, credential.response.clientDataJSON, 'sign-in', null);
  const db = deps.database.db;
  const row = await repo.findByCredentialId(db, credential.id);
  if (!row || credential.response.userHandle === undefined) throw notAccepted();
  if (!(await handleMatches(deps, row.userId, credential.response.userHandle))) throw notAccepted();
  await verifyUse(deps, row, credential, expected, true);
  const user = await users.findAccountById(db, row.userId);
  if (!user || user.deletedAt) throw notAccepted();
  return user;
}

/** The second sign-in step with a passkey, step one: options naming the account's passkeys. */
export async function secondStepOptions(
  deps: AppDeps,
  ip: string,
  ticket: string,
): Promise<{ options: PasskeyRequestOptions }> {
  await deps.limiter.consume([{ rule: rules.twoFactorIp, key: ip }]);
  const userId = twoFactor.openTicket(deps, ticket);
  const keys = await repo.listOf(deps.database.db, userId);
  if (!keys.length) throw new AppError('business_rule', passkeyMessages.noneOnAccount);
  const allowCredentials = keys.map((p) => ({
    id: p.credentialId,
    type: 'public-key' as const,
    transports: knownTransports(p.transports),
  }));
  // The password was the first factor: presence on a passkey of the account is the second.
  return requestOptions(deps, 'second-step', userId, allowCredentials, 'discouraged');
}

/** A sign-in ceremony's options, its challenge kept for the step that spends it. */
async function requestOptions(
  deps: AppDeps,
  purpose: repo.ChallengePurpose,
  userId: string | null,
  allowCredentials: PasskeyRequestOptions['allowCredentials'],
  userVerification: PasskeyRequestOptions['userVerification'],
): Promise<{ options: PasskeyRequestOptions }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    allowCredentials,
    timeout: CEREMONY_MS,
    userVerification,
  });
  await keepChallenge(deps, options.challenge, purpose, userId);
  return {
    options: {
      challenge: options.challenge,
      rpId: options.rpId!,
      timeout: CEREMONY_MS,
      userVerification,
      allowCredentials,
    },
  };
}

/**
 * Step two: the account the login's ticket names, once one of its own passkeys answered. A
 * failure counts as a wrong code does (ADR 054); success clears the count.
 */
export async function secondStepUser(
  deps: AppDeps,
  ip: string,
  ticket: string,
  credential: PasskeyAssertion,
): Promise<users.Account> {
  await deps.limiter.consume([{ rule: rules.twoFactorIp, key: ip }]);
  const userId = twoFactor.openTicket(deps, ticket);
  await twoFactor.countGuess(deps, userId);
  const expected = await spendChallenge(
    deps,
    credential.response.clientDataJSON,
    'second-step',
    userId,
  );
  const db = deps.database.db;
  const row = await repo.findByCredentialId(db, credential.id);
  // Another account's passkey proves nothing about this one.
  if (!row || row.userId !== userId) throw notAccepted();
  if (!(await handleMatches(deps, userId, credential.response.userHandle))) throw notAccepted();
  await verifyUse(deps, row, credential, expected, false);
  await deps.limiter.reset(rules.twoFactorAttempts, userId);
  const user = await users.findAccountById(db, userId);
  if (!user || user.deletedAt) throw notAccepted();
  return user;
}
