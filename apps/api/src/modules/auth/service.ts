import { authMessages, type LoginAnswer, type LoginResponse } from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import {
  days,
  hmac,
  minutes,
  newId,
  randomToken,
  safeEqual,
  sha256,
  sixDigitCode,
} from '../../lib.ts';
import { queues } from '../../jobs/queue.ts';
import { AppError } from '../../platform/errors.ts';
import { loginIpRule, rateLimited, rules } from '../../platform/rate-limit.ts';
import * as users from '../users/index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import * as twoFactor from './two-factor.ts';
import * as passkeys from './passkeys.ts';
import { hasAny as hasPasskeys } from './passkey-repository.ts';
import type { PasskeyAssertion } from '@tradeshelf/contract';
import { clippedUserAgent, deviceName, maskAddress } from './device.ts';
import { newDeviceMail, passwordChangedMail } from './notices.ts';
import { publicOrigin } from '../../platform/origin.ts';

export const CODE_TTL_MINUTES = 15;
/** Guesses per code: counted per e-mail by the limiter, the same way whether or not it has an account. */
export const CODE_MAX_ATTEMPTS = rules.codeAttempts.limit;
/** Days an unverified account may sign in before the client blocks it (docs/product.md#verification-grace). */
export const VERIFICATION_WINDOW_DAYS = 7;

type UserRow = users.Account;

/** Who is asking: the User-Agent and address a sign-in is listed and recognised by (ADR 058). */
export interface ClientInfo {
  userAgent: string | undefined;
  ip: string;
}

/** The device a sign-in comes from: its name and masked address, and their per-account HMAC. */
function deviceOf(deps: AppDeps, userId: string, client: ClientInfo) {
  const device = deviceName(client.userAgent);
  const address = maskAddress(client.ip);
  // Name and network, not the raw agent and host: a browser update or a new address in the same
  // network is the same device, not a new one each time.
  return {
    device,
    address,
    // Looked up before the address is masked; not part of the hash (a new network already is).
    place: deps.places.placeOf(client.ip),
    hash: hmac(deps.config.CODE_SECRET, `device:${userId}:${device}|${address}`),
  };
}

export interface SessionTokens {
  token: string;
  accessTokenValidity: number;
  refreshToken: string;
  refreshTokenValidity: number;
}

export function verificationDaysRemaining(user: UserRow, now = Date.now()): number {
  if (user.emailVerifiedAt) return 0;
  const left = user.createdAt.getTime() + days(VERIFICATION_WINDOW_DAYS) - now;
  return Math.max(0, Math.ceil(left / days(1)));
}

/** Signs an access token and starts (or continues) a refresh-token family. */
async function issueSession(
  deps: AppDeps,
  db: Tx,
  user: UserRow,
  client: ClientInfo,
  familyId = newId('fam'),
): Promise<SessionTokens> {
  const refreshToken = randomToken(32);
  const validityMinutes = deps.config.REFRESH_TOKEN_TTL_MINUTES;
  // The device rides on the token row itself: one insert, as before (sign-up's cost, ADR 003).
  const device = deviceOf(deps, user.id, client);
  await repo.insertRefreshToken(db, {
    id: newId('rt'),
    userId: user.id,
    familyId,
    tokenHash: sha256(refreshToken),
    expiresAt: new Date(Date.now() + minutes(validityMinutes)),
    userAgent: clippedUserAgent(client.userAgent),
    address: device.address,
    place: device.place,
    deviceHash: device.hash,
  });
  const token = await deps.tokens.sign({
    sub: user.id,
    email: user.email,
    roles: users.rolesOf(user),
    sid: familyId,
  });
  return {
    token,
    accessTokenValidity: deps.tokens.accessTtlSeconds,
    refreshToken,
    refreshTokenValidity: validityMinutes,
  };
}

function loginAnswer(user: UserRow, session: SessionTokens): LoginResponse {
  return {
    id: user.id,
    email: user.email,
    ...session,
    emailVerified: user.emailVerifiedAt !== null,
    verificationDaysRemaining: verificationDaysRemaining(user),
  };
}

/**
 * A sign-in by password (and code): the session, and the owner told of a device the account has
 * not signed in from before. An account with no device history yet (the first sign-in after
 * sign-up records its device silently; older accounts start here) mails nothing (ADR 058).
 */
async function loginResponse(
  deps: AppDeps,
  user: UserRow,
  client: ClientInfo,
): Promise<LoginResponse> {
  const device = deviceOf(deps, user.id, client);
  const { session, mailId } = await deps.database.db.transaction(async (tx) => {
    const seen = await repo.deviceSeen(tx, user.id, device.hash);
    const first = await repo.rememberDevice(tx, user.id, device.hash);
    const session = await issueSession(deps, tx, user, client);
    const mailId =
      first && !seen.known && seen.history
        ? await deps.mailer.enqueue(
            tx,
            newDeviceMail(user.email, publicOrigin(deps.config), { ...device, at: new Date() }),
          )
        : null;
    return { session, mailId };
  });
  if (mailId) await deps.jobs.send(queues.authNotice, { id: mailId });
  return loginAnswer(user, session);
}

function codeHash(deps: AppDeps, userId: string, purpose: repo.CodePurpose, code: string): string {
  return hmac(deps.config.CODE_SECRET, `${purpose}:${userId}:${code}`);
}

const attemptsKey = (purpose: repo.CodePurpose, email: string) =>
  `${purpose}:${email.toLowerCase()}`;

/** Writes a fresh code and its e-mail in the caller's transaction; returns the outbox id. */
async function issueCode(
  deps: AppDeps,
  tx: Tx,
  user: UserRow,
  purpose: repo.CodePurpose,
): Promise<string> {
  const code = sixDigitCode();
  await repo.replaceCode(tx, {
    id: newId('code'),
    userId: user.id,
    purpose,
    codeHash: codeHash(deps, user.id, purpose, code),
    expiresAt: new Date(Date.now() + minutes(CODE_TTL_MINUTES)),
  });
  // A new code comes with fresh guesses.
  await deps.limiter.reset(rules.codeAttempts, attemptsKey(purpose, user.email));
  const mail =
    purpose === 'activation'
      ? {
          subject: `Your Tradeshelf activation code: ${code}`,
          text: `Welcome to Tradeshelf.\n\nYour activation code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.\n\nIf you did not create an account, ignore this e-mail.`,
        }
      : {
          subject: `Your Tradeshelf password reset code: ${code}`,
          text: `Someone asked to reset the password of your Tradeshelf account.\n\nYour reset code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.\n\nIf it was not you, ignore this e-mail: your password stays as it is.`,
        };
  return deps.mailer.enqueue(tx, { to: user.email, ...mail });
}

/**
 * Checks a code; every guess counts against the e-mail's attempts. Unknown e-mails, expired, used,
 * exhausted and wrong codes all get the same answer and run the same statements, all reads: a
 * failure writes nothing to the database, whose commit would take measurably longer (ADR 021).
 */
async function checkCode(
  deps: AppDeps,
  db: Tx,
  email: string,
  user: UserRow | null,
  purpose: repo.CodePurpose,
  code: string,
  consume: boolean,
): Promise<void> {
  const invalid = () =>
    new AppError('invalid_code', authMessages.invalidCode, { code: authMessages.invalidCode });
  // Counted before looking, so a burst of parallel guesses cannot outrun the count.
  const { count } = await deps.limiter.hit(rules.codeAttempts, attemptsKey(purpose, email));
  const userId = user?.id ?? '';
  const expected = codeHash(deps, userId, purpose, code);
  const row = await repo.findLiveCode(db, userId, purpose);
  if (!row || !safeEqual(row.codeHash, expected) || count > CODE_MAX_ATTEMPTS) throw invalid();
  // Single use: of two requests with the right code, only one consumes it.
  if (consume && !(await repo.consumeCode(db, row.id))) throw invalid();
  await deps.limiter.reset(rules.codeAttempts, attemptsKey(purpose, email));
}

/**
 * Revokes every refresh token of the user and refuses the access tokens of each sign-in that may
 * still hold one: issued in the last two lifetimes, since a vendor token is minted from an access
 * token up to one lifetime after its family's last refresh. Returns what to `remember` after commit.
 */
async function endAllSessions(deps: AppDeps, tx: Tx, userId: string) {
  const families = await repo.recentFamilies(tx, userId, 2 * deps.tokens.accessTtlSeconds);
  await repo.revokeAllForUser(tx, userId);
  // A new password also stops an e-mail change asked for with the old one (ADR 058).
  await repo.cancelEmailChanges(tx, userId);
  return deps.denials.record(tx, userId, families, 'password');
}

/**
 * Sign-up (ADR 003). The owner repeating it with their password gets their session; otherwise a
 * taken address answers 409 and a new one 201, and both cost the same: one password verification
 * (against a throwaway hash for a new address) and one hash; one transaction of two statements
 * that commits rows (the account and its session, or, taken, the e-mail telling the owner someone
 * tried); then one job (the activation code's, or that e-mail's delivery), after the answer's data
 * is decided, as ADR 021's account mail is.
 */
export async function signup(
  deps: AppDeps,
  ip: string,
  email: string,
  password: string,
  client: ClientInfo,
): Promise<LoginResponse> {
  await deps.limiter.consume([
    { rule: { ...rules.signupIp, limit: deps.config.SIGNUP_LIMIT_PER_IP_HOUR }, key: ip },
    { rule: rules.signupAccount, key: email },
  ]);
  const db = deps.database.db;
  const existing = await users.findAccountByEmail(db, email);
  // The same person signing up twice gets their session; anyone else learns nothing new.
  // With two-factor on, the password alone never opens a session: it is treated as taken.
  if (
    (await verifyPassword(existing?.passwordHash ?? null, password)) &&
    !(await twoFactor.isEnabled(deps, existing!.id))
  ) {
    return loginResponse(deps, existing!, client);
  }
  const passwordHash = await hashPassword(password);
  const outcome = await db.transaction(async (tx) => {
    // The unique index decides whether the address is free, also for sign-ups racing each other.
    const user = await users.createAccount(tx, { id: newId('usr'), email, passwordHash });
    if (user)
      return { taken: false as const, user, session: await issueSession(deps, tx, user, client) };
    const noticeId = await deps.mailer.enqueue(tx, signupNotice(existing?.email ?? email));
    return { taken: true as const, noticeId };
  });
  // Jobs are sent after the commit: an in-process job could otherwise run before it.
  if (outcome.taken) {
    await deps.jobs.send(queues.authSignupNotice, { id: outcome.noticeId });
    throw new AppError('email_taken', authMessages.emailTaken, { email: authMessages.emailTaken });
  }
  await deps.jobs.send(queues.authActivationMail, { email: outcome.user.email });
  return loginAnswer(outcome.user, outcome.session);
}

/** The e-mail to an account's owner when someone tried to sign up with their address. */
function signupNotice(to: string) {
  return {
    to,
    subject: 'Someone tried to create a Tradeshelf account with your e-mail',
    text: [
      'Someone just tried to create a Tradeshelf account with this e-mail address, which already has one.',
      '',
      'If it was you: log in with your password, or choose "Forgot password?" on the log-in page to set a new one.',
      '',
      'If it was not you, ignore this e-mail: nothing has changed and no account was created.',
    ].join('\n'),
  };
}

export async function login(
  deps: AppDeps,
  ip: string,
  email: string,
  password: string,
  client: ClientInfo,
): Promise<LoginAnswer> {
  const { limiter } = deps;
  await limiter.consume([{ rule: loginIpRule(deps.config), key: ip }]);
  // Counters are keyed by the e-mail as typed, so an unknown account locks exactly like a real one.
  // Ten wrong guesses lock that address out of that account only, not the owner elsewhere (ADR 021).
  const pairKey = `${email}|${ip}`;
  const pair = await limiter.hit(rules.loginPair, pairKey);
  if (pair.count > rules.loginPair.limit) throw rateLimited(pair.resetIn);
  // Guessing from many addresses: past the account's ceiling, an address that failed gets no more.
  const failures = await limiter.peek(rules.loginAccountFailures, email);
  if (failures.count >= rules.loginAccountFailures.limit && pair.count > 1)
    throw rateLimited(Math.min(failures.resetIn, pair.resetIn));

  const user = await users.findAccountByEmail(deps.database.db, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) {
    await limiter.hit(rules.loginAccountFailures, email);
    throw new AppError('invalid_credentials', authMessages.invalidCredentials);
  }
  await limiter.reset(rules.loginPair, pairKey);
  // Two-factor on: no tokens yet, a signed challenge for the second step (ADR 054).
  if (await twoFactor.isEnabled(deps, user.id))
    return twoFactor.challengeFor(user.id, deps, await hasPasskeys(deps.database.db, user.id));
  return { ...(await loginResponse(deps, user, client)), twoFactorRequired: false as const };
}

/** The second sign-in step; the session it opens is exactly a password login's. */
export async function loginSecondStep(
  deps: AppDeps,
  ip: string,
  challenge: string,
  code: string,
  client: ClientInfo,
): Promise<LoginResponse> {
  const user = await twoFactor.passChallenge(deps, ip, challenge, code);
  return loginResponse(deps, user, client);
}

/** The second step with a passkey instead of a code: the same session as a code opens. */
export async function loginSecondStepPasskey(
  deps: AppDeps,
  ip: string,
  challenge: string,
  credential: PasskeyAssertion,
  client: ClientInfo,
): Promise<LoginResponse> {
  const user = await passkeys.secondStepUser(deps, ip, challenge, credential);
  return loginResponse(deps, user, client);
}

/**
 * Signing in with a passkey alone (ADR 054): the session, the new-device e-mail and the answer a
 * password login gives, so the web applies it the same way (store delay, unverified e-mail block).
 */
export async function loginWithPasskey(
  deps: AppDeps,
  credential: PasskeyAssertion,
  client: ClientInfo,
): Promise<LoginResponse> {
  const user = await passkeys.signInUser(deps, credential);
  return loginResponse(deps, user, client);
}

export async function refresh(
  deps: AppDeps,
  ip: string,
  bearer: string | null,
  userId: string,
  refreshToken: string,
  client: ClientInfo,
) {
  await deps.limiter.consume([{ rule: rules.refreshIp, key: ip }]);
  const invalid = () => new AppError('invalid_token', 'Your session has expired. Sign in again.');
  if (!bearer || !safeEqual(bearer, refreshToken)) throw invalid();
  const db = deps.database.db;
  const row = await repo.findRefreshByHash(db, sha256(refreshToken));
  if (!row || !safeEqual(row.userId, userId)) throw invalid();
  if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw invalid();
  const user = await users.findAccountById(db, row.userId);
  if (!user) throw invalid();

  const next = await db.transaction(async (tx) => {
    if (!(await repo.claimRefreshToken(tx, row.id))) return null;
    // The new row dates the sign-in's "last seen" and where from (ADR 058).
    return issueSession(deps, tx, user, client, row.familyId);
  });
  if (!next) {
    // Already rotated: someone holds a copy. End this sign-in, its access tokens included.
    const denied = await db.transaction(async (tx) => {
      await repo.revokeFamily(tx, row.familyId);
      return deps.denials.record(tx, row.userId, [row.familyId], 'reuse');
    });
    deps.denials.remember(denied);
    throw new AppError('token_reused', 'This session was ended for your safety. Sign in again.');
  }
  return {
    authentication_token: next.token,
    access_token_validity: Math.floor(next.accessTokenValidity / 60),
    refresh_token: next.refreshToken,
    refresh_token_validity: next.refreshTokenValidity,
  };
}

export async function logout(deps: AppDeps, refreshToken: string): Promise<void> {
  const row = await repo.findRefreshByHash(deps.database.db, sha256(refreshToken));
  if (!row) return;
  // The access token in this session's hands goes too (e.g. one copied off a shared computer).
  const denied = await deps.database.db.transaction(async (tx) => {
    await repo.revokeFamily(tx, row.familyId);
    return deps.denials.record(tx, row.userId, [row.familyId], 'logout');
  });
  deps.denials.remember(denied);
}

export async function sendForgotPasswordEmail(
  deps: AppDeps,
  ip: string,
  email: string,
): Promise<void> {
  await deps.limiter.consume([
    { rule: rules.forgotIp, key: ip },
    { rule: rules.forgotEmail, key: email },
  ]);
  // No lookup here: the answer is written before anyone knows whether the account exists (ADR 021).
  await deps.jobs.send(queues.authResetMail, { email });
}

/** Job: mails a reset code when the e-mail has an account; nothing otherwise. */
export async function mailResetCode(deps: AppDeps, email: string): Promise<void> {
  const user = await users.findAccountByEmail(deps.database.db, email);
  if (!user) return;
  const mailId = await deps.database.db.transaction((tx) =>
    issueCode(deps, tx, user, 'password_reset'),
  );
  await deps.mailer.dispatch([mailId]);
}

export async function checkForgotPasswordCode(
  deps: AppDeps,
  ip: string,
  email: string,
  code: string,
) {
  await deps.limiter.consume([{ rule: rules.codeCheckIp, key: ip }]);
  const user = await users.findAccountByEmail(deps.database.db, email);
  await checkCode(deps, deps.database.db, email, user, 'password_reset', code, false);
}

export async function resetForgotPassword(
  deps: AppDeps,
  ip: string,
  email: string,
  code: string,
  password: string,
): Promise<void> {
  await deps.limiter.consume([{ rule: rules.codeCheckIp, key: ip }]);
  const user = await users.findAccountByEmail(deps.database.db, email);
  const passwordHash = await hashPassword(password);
  const { denied, mailId } = await deps.database.db.transaction(async (tx) => {
    await checkCode(deps, tx, email, user, 'password_reset', code, true);
    await users.setPasswordHash(tx, user!.id, passwordHash);
    // Receiving the code proves the mailbox, so the account counts as verified too.
    await users.markEmailVerified(tx, user!.id);
    // Whoever knew the old password is signed out everywhere.
    const denied = await endAllSessions(deps, tx, user!.id);
    const mailId = await deps.mailer.enqueue(
      tx,
      passwordChangedMail(user!.email, publicOrigin(deps.config), new Date()),
    );
    return { denied, mailId };
  });
  deps.denials.remember(denied);
  await deps.jobs.send(queues.authNotice, { id: mailId });
}

export async function changePassword(
  deps: AppDeps,
  userId: string,
  currentPassword: string,
  newPassword: string,
  client: ClientInfo,
) {
  await deps.limiter.consume([{ rule: rules.passwordChange, key: userId }]);
  const user = await users.findAccountById(deps.database.db, userId);
  if (!user) throw new AppError('invalid_token', 'Your session has expired. Sign in again.');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AppError('business_rule', authMessages.wrongCurrentPassword, {
      currentPassword: authMessages.wrongCurrentPassword,
    });
  }
  const passwordHash = await hashPassword(newPassword);
  const { session, denied, mailId } = await deps.database.db.transaction(async (tx) => {
    await users.setPasswordHash(tx, user.id, passwordHash);
    // Every sign-in ends, this one too: it continues as a new one with the pair returned here.
    const denied = await endAllSessions(deps, tx, user.id);
    const mailId = await deps.mailer.enqueue(
      tx,
      passwordChangedMail(user.email, publicOrigin(deps.config), new Date()),
    );
    return { denied, mailId, session: await issueSession(deps, tx, user, client) };
  });
  deps.denials.remember(denied);
  await deps.jobs.send(queues.authNotice, { id: mailId });
  return { message: authMessages.passwordChanged, ...session };
}

export async function sendActivationEmail(deps: AppDeps, ip: string, email: string): Promise<void> {
  await deps.limiter.consume([
    { rule: rules.activationIp, key: ip },
    { rule: rules.activationEmail, key: email },
  ]);
  await deps.jobs.send(queues.authActivationMail, { email });
}

/** Job: mails a new activation code when the account exists and is unverified. */
export async function mailActivationCode(deps: AppDeps, email: string): Promise<void> {
  const user = await users.findAccountByEmail(deps.database.db, email);
  if (!user || user.emailVerifiedAt) return;
  const mailId = await deps.database.db.transaction((tx) =>
    issueCode(deps, tx, user, 'activation'),
  );
  await deps.mailer.dispatch([mailId]);
}

export async function verifyAccount(
  deps: AppDeps,
  ip: string,
  email: string,
  code: string,
): Promise<void> {
  await deps.limiter.consume([{ rule: rules.codeCheckIp, key: ip }]);
  const user = await users.findAccountByEmail(deps.database.db, email);
  // A verified account has no live code, so it gets the same answer as an unknown e-mail.
  await deps.database.db.transaction(async (tx) => {
    await checkCode(deps, tx, email, user, 'activation', code, true);
    await users.markEmailVerified(tx, user!.id);
  });
}
