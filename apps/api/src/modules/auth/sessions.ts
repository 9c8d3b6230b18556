// Use case: the account's active sign-ins, and logging them out (ADR 058). Ending one works as a
// logout does (ADR 021): its refresh family is revoked and its access tokens are refused, on this
// node at once and on the others within the denial sync interval.
import { accountMessages, type AccountSession } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { deviceName } from './device.ts';
import * as repo from './repository.ts';

/** More than anyone has open; a list past it shows the newest. */
const MAX_LISTED = 100;

export async function listSessions(
  deps: AppDeps,
  userId: string,
  currentFamily: string,
): Promise<{ sessions: AccountSession[] }> {
  const rows = await repo.activeSignIns(deps.database.db, userId, MAX_LISTED);
  return {
    sessions: rows.map((r) => ({
      id: r.familyId,
      device: deviceName(r.userAgent),
      address: r.address ?? 'unknown',
      place: r.place,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      current: r.familyId === currentFamily,
    })),
  };
}

/** Logs one sign-in of the user out; anything else (another user's, ended, unknown) is 404. */
export async function endSession(deps: AppDeps, userId: string, familyId: string) {
  const denied = await deps.database.db.transaction(async (tx) => {
    if (!(await repo.isActiveFamilyOf(tx, userId, familyId))) {
      throw new AppError('not_found', accountMessages.sessionNotFound);
    }
    await repo.revokeFamily(tx, familyId);
    return deps.denials.record(tx, userId, [familyId], 'revoked');
  });
  deps.denials.remember(denied);
  return { message: accountMessages.sessionEnded };
}

/**
 * Logs out every sign-in but the caller's. Access tokens are refused for each family that may
 * still hold one (issued within two lifetimes, as a password change does), not only the live ones.
 */
export async function endOtherSessions(deps: AppDeps, userId: string, currentFamily: string) {
  const { denied, ended } = await deps.database.db.transaction(async (tx) => {
    const active = await repo.activeFamiliesExcept(tx, userId, currentFamily);
    const recent = await repo.recentFamilies(tx, userId, 2 * deps.tokens.accessTtlSeconds);
    await repo.revokeAllExcept(tx, userId, currentFamily);
    const families = [...new Set([...active, ...recent])].filter((f) => f !== currentFamily);
    return {
      ended: active.length,
      denied: await deps.denials.record(tx, userId, families, 'revoked'),
    };
  });
  deps.denials.remember(denied);
  return { message: accountMessages.othersEnded, ended };
}
