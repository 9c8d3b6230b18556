// Use case: changing the account's e-mail address (ADR 058). Asked for with the password (and a
// two-factor code when on); made only when the link mailed to the new address is opened, within
// 24 hours, once. An address with an account of its own gets the same answer and a notice instead
// of a link, as sign-up tells an owner someone tried (ADR 003).
import { accountMessages, authMessages, EMAIL_CHANGE_LINK_HOURS } from '@tradeshelf/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { hours, newId, randomToken, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { rules } from '../../platform/rate-limit.ts';
import * as users from '../users/index.ts';
import { emailChangeLinkMail, emailChangeNoticeMail, emailChangeTakenMail } from './notices.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import { proveIfEnabled } from './two-factor.ts';

const gone = () => new AppError('invalid_token', 'Your session has expired. Sign in again.');

export async function requestEmailChange(
  deps: AppDeps,
  userId: string,
  body: { email: string; password: string; twoFactorCode?: string | undefined },
) {
  await deps.limiter.consume([{ rule: rules.emailChange, key: userId }]);
  const db = deps.database.db;
  const user = await users.findAccountById(db, userId);
  if (!user) throw gone();
  if (user.email.toLowerCase() === body.email) {
    throw new AppError('business_rule', accountMessages.emailSame, {
      email: accountMessages.emailSame,
    });
  }
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    throw new AppError('business_rule', authMessages.wrongCurrentPassword, {
      password: authMessages.wrongCurrentPassword,
    });
  }
  await proveIfEnabled(deps, userId, body.twoFactorCode);

  const origin = publicOrigin(deps.config);
  const taken = await users.findAccountByEmail(db, body.email);
  const token = randomToken(32);
  // The same statements either way; only the new address's mail differs, and the requester
  // cannot read it.
  const mailIds = await db.transaction(async (tx) => {
    await repo.cancelEmailChanges(tx, userId);
    await repo.insertEmailChange(tx, {
      id: newId('emc'),
      userId,
      newEmail: body.email,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + hours(EMAIL_CHANGE_LINK_HOURS)),
    });
    return [
      await deps.mailer.enqueue(
        tx,
        taken
          ? emailChangeTakenMail(body.email, origin)
          : emailChangeLinkMail(body.email, origin, token),
      ),
      await deps.mailer.enqueue(tx, emailChangeNoticeMail(user.email, origin, body.email, false)),
    ];
  });
  for (const id of mailIds) await deps.jobs.send(queues.authNotice, { id });
  return { message: accountMessages.emailChangeSent };
}

/** The link's token makes the change; no sign-in needed (it may open on another device). */
export async function confirmEmailChange(deps: AppDeps, ip: string, token: string) {
  await deps.limiter.consume([{ rule: rules.codeCheckIp, key: ip }]);
  const invalid = () =>
    new AppError('invalid_code', accountMessages.emailLinkInvalid, {
      token: accountMessages.emailLinkInvalid,
    });
  const noLongerFree = () => new AppError('conflict', accountMessages.emailNoLongerFree);
  let outcome: { email: string; mailId: string };
  try {
    outcome = await deps.database.db.transaction(async (tx) => {
      const change = await repo.consumeEmailChange(tx, sha256(token));
      if (!change) throw invalid();
      const other = await users.findAccountByEmail(tx, change.newEmail);
      if (other && other.id !== change.userId) throw noLongerFree();
      const before = await users.findAccountById(tx, change.userId);
      if (!before) throw invalid();
      await users.setAccountEmail(tx, change.userId, change.newEmail);
      const mailId = await deps.mailer.enqueue(
        tx,
        emailChangeNoticeMail(before.email, publicOrigin(deps.config), change.newEmail, true),
      );
      return { email: change.newEmail, mailId };
    });
  } catch (err) {
    // Taken between the check and the write (a sign-up racing it): the unique index decides.
    if (isUniqueViolation(err)) throw noLongerFree();
    throw err;
  }
  await deps.jobs.send(queues.authNotice, { id: outcome.mailId });
  return { message: accountMessages.emailConfirmed, email: outcome.email };
}

export async function pendingEmail(deps: AppDeps, userId: string) {
  const row = await repo.pendingEmailChange(deps.database.db, userId);
  return row ? { email: row.newEmail, expiresAt: row.expiresAt.toISOString() } : null;
}
