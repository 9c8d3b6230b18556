// The users module's part of exporting and deleting an account (ADR 060).
import { USERNAME_HOLD_DAYS } from '@tradeshelf/contract';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { usernameHolds, users } from './tables.ts';
import type { UserRow } from './repository.ts';

export function profileExport(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    roles: user.roles,
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The address a deleted account keeps: unique, never deliverable (`.invalid`, RFC 2606). */
export const deletedEmailOf = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * De-identifies the row, which stays because orders and ledger lines point at it: the e-mail is
 * replaced (so the address may sign up again at once), the password can never match, the avatar
 * and username go. The username is held for USERNAME_HOLD_DAYS like any name given up (ADR 058),
 * so nobody can pose as a seller who just left; nobody can take it back, then anyone may.
 * Returns the avatar key to delete from storage, if any.
 */
export async function forgetAccount(tx: Tx, user: UserRow): Promise<string | null> {
  await tx
    .update(users)
    .set({
      email: deletedEmailOf(user.id),
      // Not an argon2 hash: verification fails without a hash to compare against.
      passwordHash: '!deleted',
      username: null,
      avatarKey: null,
      emailVerifiedAt: null,
      deletedAt: sql`now()`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  await tx.delete(usernameHolds).where(eq(usernameHolds.userId, user.id));
  if (user.username) {
    await tx
      .insert(usernameHolds)
      .values({
        name: user.username.toLowerCase(),
        userId: user.id,
        heldUntil: sql`now() + make_interval(days => ${USERNAME_HOLD_DAYS})`,
      })
      .onConflictDoUpdate({
        target: usernameHolds.name,
        set: { userId: user.id, heldUntil: sql`excluded.held_until` },
      });
  }
  return user.avatarKey;
}
