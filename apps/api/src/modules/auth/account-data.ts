// The auth module's part of exporting and deleting an account (ADR 060): proving the owner, the
// sign-ins listed in the export, and ending every sign-in with what only mattered to one.
import { authMessages } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import * as users from '../users/index.ts';
import { deviceName } from './device.ts';
import { verifyPassword } from './passwords.ts';
import * as passkeyRepo from './passkey-repository.ts';
import * as repo from './repository.ts';
import { isEnabled, proveIfEnabled } from './two-factor.ts';

/**
 * The password, then a current two-factor code when two-factor is on: what an e-mail change asks
 * (ADR 058). A wrong password answers 400 on `password`.
 */
export async function confirmOwner(
  deps: AppDeps,
  userId: string,
  body: { password: string; twoFactorCode?: string | undefined },
): Promise<users.Account> {
  const user = await users.findAccountById(deps.database.db, userId);
  if (!user || user.deletedAt) {
    throw new AppError('invalid_token', 'Your session has expired. Sign in again.');
  }
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    throw new AppError('business_rule', authMessages.wrongCurrentPassword, {
      password: authMessages.wrongCurrentPassword,
    });
  }
  await proveIfEnabled(deps, userId, body.twoFactorCode);
  return user;
}

export async function securityExport(deps: AppDeps, userId: string) {
  const signIns = await repo.activeSignIns(deps.database.db, userId, 100);
  const passkeys = await passkeyRepo.listOf(deps.database.db, userId);
  return {
    twoFactorEnabled: await isEnabled(deps, userId),
    passkeys: passkeys.map((p) => ({
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
      synced: p.backedUp,
    })),
    signIns: signIns.map((r) => ({
      device: deviceName(r.userAgent),
      address: r.address ?? 'unknown',
      place: r.place,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
    })),
  };
}

/**
 * In the deleting transaction: every refresh family revoked and each that may still hold an access
 * token denied (as a password change does), and the account's second factor, passkeys, codes,
 * devices and pending e-mail change removed. The caller remembers the returned denial after the
 * commit.
 */
export async function endAccountSessions(deps: AppDeps, tx: Tx, userId: string) {
  const families = await repo.recentFamilies(tx, userId, 2 * deps.tokens.accessTtlSeconds);
  await repo.revokeAllForUser(tx, userId);
  await repo.cancelEmailChanges(tx, userId);
  for (const table of [
    'two_factor_recovery_codes',
    'two_factor_secrets',
    'passkeys',
    'passkey_handles',
    'passkey_challenges',
    'known_devices',
    'email_codes',
    'email_changes',
  ]) {
    await tx.execute(sql`delete from ${sql.identifier(table)} where user_id = ${userId}`);
  }
  return deps.denials.record(tx, userId, families, 'revoked');
}
