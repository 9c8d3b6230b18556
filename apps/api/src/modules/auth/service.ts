import { authMessages, type LoginResponse } from '@tradeshelf/contract';
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
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import * as users from '../users/repository.ts';
import { rolesOf } from '../users/presenter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';

export const CODE_TTL_MINUTES = 15;
export const CODE_MAX_ATTEMPTS = 5;
/** Days an unverified account may sign in before the client blocks it (SPEC §4 grace rule). */
export const VERIFICATION_WINDOW_DAYS = 7;

type UserRow = users.UserRow;

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
  familyId = newId('fam'),
): Promise<SessionTokens> {
  const refreshToken = randomToken(32);
  const validityMinutes = deps.config.REFRESH_TOKEN_TTL_MINUTES;
  await repo.insertRefreshToken(db, {
    id: newId('rt'),
    userId: user.id,
    familyId,
    tokenHash: sha256(refreshToken),
    expiresAt: new Date(Date.now() + minutes(validityMinutes)),
  });
  const token = await deps.tokens.sign({ sub: user.id, email: user.email, roles: rolesOf(user) });
  return {
    token,
    accessTokenValidity: deps.tokens.accessTtlSeconds,
    refreshToken,
    refreshTokenValidity: validityMinutes,
  };
}

async function loginResponse(deps: AppDeps, user: UserRow): Promise<LoginResponse> {
  const session = await issueSession(deps, deps.database.db, user);
  return {
    id: user.id,
    email: user.email,
    ...session,
    emailVerified: user.emailVerifiedAt !== null,
    verificationDaysRemaining: verificationDaysRemaining(user),
  };
}

function codeHash(deps: AppDeps, userId: string, purpose: repo.CodePurpose, code: string): string {
  return hmac(deps.config.CODE_SECRET, `${purpose}:${userId}:${code}`);
}

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
 * Checks a code, counting a wrong guess against its attempts. Unknown e-mails, expired, used,
 * exhausted and wrong codes all get the same answer.
 */
async function checkCode(
  deps: AppDeps,
  tx: Tx,
  user: UserRow | null,
  purpose: repo.CodePurpose,
  code: string,
  consume: boolean,
): Promise<void> {
  const invalid = () =>
    new AppError('invalid_code', authMessages.invalidCode, { code: authMessages.invalidCode });
  if (!user) throw invalid();
  const row = await repo.lockLiveCode(tx, user.id, purpose);
  if (!row || row.attempts >= CODE_MAX_ATTEMPTS) throw invalid();
  if (!safeEqual(row.codeHash, codeHash(deps, user.id, purpose, code))) {
    await repo.countFailedAttempt(tx, row.id);
    throw invalid();
  }
  if (consume) await repo.consumeCode(tx, row.id);
}

/** Runs work that may throw an expected AppError after writing something that must persist. */
async function inTx<T>(deps: AppDeps, work: (tx: Tx) => Promise<T>): Promise<T> {
  let failure = null as AppError | null;
  const result = await deps.database.db.transaction(async (tx) => {
    try {
      return await work(tx);
    } catch (err) {
      // A wrong code must still count its attempt: commit, then report.
      if (err instanceof AppError) {
        failure = err;
        return undefined as T;
      }
      throw err;
    }
  });
  if (failure) throw failure;
  return result;
}

export async function signup(
  deps: AppDeps,
  ip: string,
  email: string,
  password: string,
): Promise<LoginResponse> {
  await deps.limiter.consume([
    { rule: rules.signupIp, key: ip },
    { rule: rules.signupAccount, key: email },
  ]);
  const existing = await users.findUserByEmail(deps.database.db, email);
  if (existing) {
    // The same person signing up twice gets their session; anyone else learns nothing new (ADR 003).
    if (await verifyPassword(existing.passwordHash, password)) return loginResponse(deps, existing);
    throw new AppError('email_taken', authMessages.emailTaken, { email: authMessages.emailTaken });
  }
  const passwordHash = await hashPassword(password);
  const created = await deps.database.db.transaction(async (tx) => {
    const user = await users.insertUser(tx, { id: newId('usr'), email, passwordHash });
    if (!user) return null;
    const mailId = await issueCode(deps, tx, user, 'activation');
    return { user, mailId };
  });
  if (!created)
    throw new AppError('email_taken', authMessages.emailTaken, { email: authMessages.emailTaken });
  await deps.mailer.dispatch([created.mailId]);
  return loginResponse(deps, created.user);
}

export async function login(
  deps: AppDeps,
  ip: string,
  email: string,
  password: string,
): Promise<LoginResponse> {
  await deps.limiter.consume([
    { rule: rules.loginIp, key: ip },
    { rule: rules.loginAccount, key: email },
  ]);
  const user = await users.findUserByEmail(deps.database.db, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) throw new AppError('invalid_credentials', authMessages.invalidCredentials);
  await deps.limiter.reset(rules.loginAccount, email);
  return loginResponse(deps, user);
}

export async function refresh(
  deps: AppDeps,
  ip: string,
  bearer: string | null,
  userId: string,
  refreshToken: string,
) {
  await deps.limiter.consume([{ rule: rules.refreshIp, key: ip }]);
  const invalid = () => new AppError('invalid_token', 'Your session has expired. Sign in again.');
  if (!bearer || !safeEqual(bearer, refreshToken)) throw invalid();
  const db = deps.database.db;
  const row = await repo.findRefreshByHash(db, sha256(refreshToken));
  if (!row || !safeEqual(row.userId, userId)) throw invalid();
  if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw invalid();
  const user = await users.findUserById(db, row.userId);
  if (!user) throw invalid();

  const next = await db.transaction(async (tx) => {
    if (!(await repo.claimRefreshToken(tx, row.id))) return null;
    return issueSession(deps, tx, user, row.familyId);
  });
  if (!next) {
    // Already rotated: someone holds a copy. End every session of this sign-in.
    await repo.revokeFamily(db, row.familyId);
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
  if (row) await repo.revokeFamily(deps.database.db, row.familyId);
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
  const user = await users.findUserByEmail(deps.database.db, email);
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
  const user = await users.findUserByEmail(deps.database.db, email);
  await inTx(deps, (tx) => checkCode(deps, tx, user, 'password_reset', code, false));
}

export async function resetForgotPassword(
  deps: AppDeps,
  ip: string,
  email: string,
  code: string,
  password: string,
): Promise<void> {
  await deps.limiter.consume([{ rule: rules.codeCheckIp, key: ip }]);
  const user = await users.findUserByEmail(deps.database.db, email);
  const passwordHash = await hashPassword(password);
  await inTx(deps, async (tx) => {
    await checkCode(deps, tx, user, 'password_reset', code, true);
    await users.updatePasswordHash(tx, user!.id, passwordHash);
    // Whoever knew the old password is signed out everywhere.
    await repo.revokeAllForUser(tx, user!.id);
    // Receiving the code proves the mailbox, so the account counts as verified too.
    await users.markEmailVerified(tx, user!.id);
  });
}

export async function changePassword(
  deps: AppDeps,
  userId: string,
  currentPassword: string,
  newPassword: string,
) {
  await deps.limiter.consume([{ rule: rules.passwordChange, key: userId }]);
  const user = await users.findUserById(deps.database.db, userId);
  if (!user) throw new AppError('invalid_token', 'Your session has expired. Sign in again.');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AppError('business_rule', authMessages.wrongCurrentPassword, {
      currentPassword: authMessages.wrongCurrentPassword,
    });
  }
  const passwordHash = await hashPassword(newPassword);
  const session = await deps.database.db.transaction(async (tx) => {
    await users.updatePasswordHash(tx, user.id, passwordHash);
    await repo.revokeAllForUser(tx, user.id);
    return issueSession(deps, tx, user);
  });
  return { message: authMessages.passwordChanged, ...session };
}

export async function sendActivationEmail(deps: AppDeps, ip: string, email: string): Promise<void> {
  await deps.limiter.consume([
    { rule: rules.activationIp, key: ip },
    { rule: rules.activationEmail, key: email },
  ]);
  const user = await users.findUserByEmail(deps.database.db, email);
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
  const user = await users.findUserByEmail(deps.database.db, email);
  // A verified account has no live code, so it gets the same answer as an unknown e-mail.
  await inTx(deps, async (tx) => {
    await checkCode(deps, tx, user, 'activation', code, true);
    await users.markEmailVerified(tx, user!.id);
  });
}
