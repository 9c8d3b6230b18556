// Use case: two-factor authentication with an authenticator app (RFC 6238 TOTP) and one-time
// recovery codes (ADR 054).
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { accountMessages, twoFactorMessages, authMessages } from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { OutgoingMail } from '../../integrations/mail/mailer.ts';
import { hmac, minutes, newId, randomToken } from '../../lib.ts';
import { queues } from '../../jobs/queue.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { rateLimited, rules } from '../../platform/rate-limit.ts';
import { Sealer } from '../../platform/seal.ts';
import * as users from '../users/index.ts';
import { verifyPassword } from './passwords.ts';
import { recoveryCodesMail, twoFactorMail } from './notices.ts';
import * as repo from './two-factor-repository.ts';

const PERIOD = 30;
/** Steps either side of now a code may come from: a phone's clock a little off still works. */
const WINDOW = 1;
export const RECOVERY_CODES = 10;
export const CHALLENGE_TTL_MINUTES = 5;
const ISSUER = 'Tradeshelf';
/** No 0/o/1/l/i: recovery codes are read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const sealers = new WeakMap<AppDeps, Sealer>();
function sealer(deps: AppDeps): Sealer {
  let s = sealers.get(deps);
  if (!s) sealers.set(deps, (s = new Sealer(`two-factor:${deps.config.CODE_SECRET}`)));
  return s;
}

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

const invalidCode = () =>
  new AppError('invalid_code', twoFactorMessages.invalidCode, {
    code: twoFactorMessages.invalidCode,
  });

/** Guesses count per account, as wrong passwords do: past the limit, 429 until the window ends. */
export async function countGuess(deps: AppDeps, userId: string): Promise<void> {
  const { count, resetIn } = await deps.limiter.hit(rules.twoFactorAttempts, userId);
  if (count > rules.twoFactorAttempts.limit) throw rateLimited(resetIn);
}

/**
 * Checks a TOTP code against the secret and uses its step up (replay refused). Constant-time
 * comparison is otpauth's.
 */
async function useTotp(deps: AppDeps, db: Tx, row: repo.TwoFactorRow, code: string) {
  const secret = sealer(deps).open(row.secretSealed);
  if (!secret) throw invalidCode();
  const now = Date.now();
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return false;
  const step = TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
  return repo.claimStep(db, row.userId, step);
}

const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const recoveryHash = (deps: AppDeps, userId: string, code: string) =>
  hmac(deps.config.CODE_SECRET, `recovery:${userId}:${normaliseRecovery(code)}`);

function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Checks a code for an enabled account: counts the guess, resets the count when right. */
async function proveCode(
  deps: AppDeps,
  userId: string,
  code: string,
  allowRecovery: boolean,
): Promise<void> {
  await countGuess(deps, userId);
  const db = deps.database.db;
  const row = await repo.findSecret(db, userId);
  if (!row?.enabledAt) throw invalidCode();
  const ok = /^\d{6}$/.test(code)
    ? await useTotp(deps, db, row, code)
    : allowRecovery && (await repo.useRecoveryCode(db, userId, recoveryHash(deps, userId, code)));
  if (!ok) throw invalidCode();
  await deps.limiter.reset(rules.twoFactorAttempts, userId);
}

export async function status(deps: AppDeps, userId: string) {
  const db = deps.database.db;
  const enabled = await repo.isEnabled(db, userId);
  return { enabled, recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(db, userId) : 0 };
}

/** A new secret, pending until confirmed; starting again replaces a pending one. */
export async function setup(deps: AppDeps, userId: string) {
  const db = deps.database.db;
  const email = await users.emailIn(db, userId);
  if (!email) throw new AppError('invalid_token', 'Your session has expired. Sign in again.');
  const secret = new Secret({ size: 20 }).base32;
  if (!(await repo.startSecret(db, userId, sealer(deps).seal(secret)))) {
    throw new AppError('conflict', twoFactorMessages.alreadyOn);
  }
  return { secret, uri: totpOf(secret, email).toString() };
}

/** The first code turns it on; the recovery codes are answered this once and kept as HMACs. */
export async function confirm(deps: AppDeps, userId: string, code: string) {
  await countGuess(deps, userId);
  const db = deps.database.db;
  const row = await repo.findSecret(db, userId);
  if (!row) throw new AppError('business_rule', twoFactorMessages.notStarted);
  if (row.enabledAt) throw new AppError('conflict', twoFactorMessages.alreadyOn);
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const mailId = await db.transaction(async (tx) => {
    if (!(await useTotp(deps, tx, row, code))) throw invalidCode();
    await repo.enable(
      tx,
      userId,
      codes.map((c) => recoveryHash(deps, userId, c)),
      codes.map(() => newId('rc')),
    );
    return notify(deps, tx, userId, (to, origin) => twoFactorMail(to, origin, true));
  });
  await sendNotice(deps, mailId);
  await deps.limiter.reset(rules.twoFactorAttempts, userId);
  return { message: twoFactorMessages.enabled, recoveryCodes: codes };
}

export async function disable(
  deps: AppDeps,
  userId: string,
  proof: { code?: string | undefined; password?: string | undefined },
) {
  const db = deps.database.db;
  if (!(await repo.isEnabled(db, userId))) {
    throw new AppError('business_rule', twoFactorMessages.notOn);
  }
  if (proof.code !== undefined) {
    await proveCode(deps, userId, proof.code, false);
  } else {
    await countGuess(deps, userId);
    const user = await users.findAccountById(db, userId);
    if (!(await verifyPassword(user?.passwordHash ?? null, proof.password ?? ''))) {
      throw new AppError('business_rule', authMessages.wrongCurrentPassword, {
        password: authMessages.wrongCurrentPassword,
      });
    }
    await deps.limiter.reset(rules.twoFactorAttempts, userId);
  }
  const mailId = await db.transaction(async (tx) => {
    await repo.disable(tx, userId);
    return notify(deps, tx, userId, (to, origin) => twoFactorMail(to, origin, false));
  });
  await sendNotice(deps, mailId);
  return { message: twoFactorMessages.disabled };
}

/** Writes an account notice to the outbox in the change's transaction (ADR 058). */
export async function notify(
  deps: AppDeps,
  tx: Tx,
  userId: string,
  mail: (to: string, origin: string) => OutgoingMail,
): Promise<string | null> {
  const to = await users.emailIn(tx, userId);
  return to ? deps.mailer.enqueue(tx, mail(to, publicOrigin(deps.config))) : null;
}

export async function sendNotice(deps: AppDeps, mailId: string | null): Promise<void> {
  if (mailId) await deps.jobs.send(queues.authNotice, { id: mailId });
}

/**
 * A new set of recovery codes for a current authenticator code (ADR 058): the old set is deleted
 * in the same transaction, so it stops working as the new one is answered, this once.
 */
export async function regenerateRecoveryCodes(deps: AppDeps, userId: string, code: string) {
  await deps.limiter.consume([{ rule: rules.recoveryCodes, key: userId }]);
  const db = deps.database.db;
  if (!(await repo.isEnabled(db, userId))) {
    throw new AppError('business_rule', twoFactorMessages.notOn);
  }
  await proveCode(deps, userId, code, false);
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const mailId = await db.transaction(async (tx) => {
    await repo.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((c) => recoveryHash(deps, userId, c)),
      codes.map(() => newId('rc')),
    );
    return notify(deps, tx, userId, recoveryCodesMail);
  });
  await sendNotice(deps, mailId);
  return { message: accountMessages.recoveryCodesRegenerated, recoveryCodes: codes };
}

/**
 * Before an account change (the e-mail address): with two-factor on, a current code is needed
 * too; off, nothing more is asked.
 */
export async function proveIfEnabled(
  deps: AppDeps,
  userId: string,
  code: string | undefined,
): Promise<void> {
  if (!(await repo.isEnabled(deps.database.db, userId))) return;
  if (code === undefined) {
    throw new AppError('forbidden', accountMessages.twoFactorCodeNeeded, {
      twoFactorCode: accountMessages.twoFactorCodeNeeded,
    });
  }
  try {
    await proveCode(deps, userId, code, false);
  } catch (err) {
    // The form's field is `twoFactorCode`: say it there.
    if (err instanceof AppError && err.code === 'invalid_code')
      throw new AppError('invalid_code', twoFactorMessages.invalidCode, {
        twoFactorCode: twoFactorMessages.invalidCode,
      });
    throw err;
  }
}

export async function isEnabled(deps: AppDeps, userId: string): Promise<boolean> {
  return repo.isEnabled(deps.database.db, userId);
}

/**
 * After a right password: the signed, short-lived ticket the second step presents, and whether
 * the account has a passkey to present instead of a code.
 */
export function challengeFor(userId: string, deps: AppDeps, passkeys: boolean) {
  const expires = Date.now() + minutes(CHALLENGE_TTL_MINUTES);
  return {
    twoFactorRequired: true as const,
    challenge: sealer(deps).sign(`login2fa:${userId}:${expires}:${randomToken(8)}`),
    expiresIn: CHALLENGE_TTL_MINUTES * 60,
    passkeys,
  };
}

/** The account a live second-step ticket names; an expired or forged one is refused. */
export function openTicket(deps: AppDeps, challenge: string): string {
  const [purpose, userId, expires] = (sealer(deps).verify(challenge) ?? '').split(':');
  if (purpose !== 'login2fa' || !userId || !(Number(expires) > Date.now())) {
    throw new AppError('invalid_token', twoFactorMessages.challengeExpired);
  }
  return userId;
}

/** The second sign-in step: the account the challenge names, once its code checks out. */
export async function passChallenge(
  deps: AppDeps,
  ip: string,
  challenge: string,
  code: string,
): Promise<users.Account> {
  await deps.limiter.consume([{ rule: rules.twoFactorIp, key: ip }]);
  const userId = openTicket(deps, challenge);
  await proveCode(deps, userId, code, true);
  const user = await users.findAccountById(deps.database.db, userId);
  if (!user) throw new AppError('invalid_token', twoFactorMessages.challengeExpired);
  return user;
}

/**
 * Before a sensitive change (the payout account): two-factor must be on (403 otherwise, saying
 * so) and a current code given.
 */
export async function requireFreshCode(
  deps: AppDeps,
  userId: string,
  code: string | undefined,
): Promise<void> {
  if (!(await repo.isEnabled(deps.database.db, userId))) {
    throw new AppError('forbidden', twoFactorMessages.required);
  }
  if (code === undefined) {
    throw new AppError('forbidden', twoFactorMessages.codeRequired, {
      twoFactorCode: twoFactorMessages.codeRequired,
    });
  }
  await proveCode(deps, userId, code, false);
}
