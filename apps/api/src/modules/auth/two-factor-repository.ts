// Two-factor rows (ADR 054): the sealed secret and the recovery codes' HMACs.
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { twoFactorRecoveryCodes, twoFactorSecrets } from './tables.ts';

export type TwoFactorRow = typeof twoFactorSecrets.$inferSelect;

export async function findSecret(db: Tx, userId: string): Promise<TwoFactorRow | null> {
  const rows = await db
    .select()
    .from(twoFactorSecrets)
    .where(eq(twoFactorSecrets.userId, userId))
    .limit(1);
  return rows[0] ?? null;
}

/** A new pending secret; refused (false) while one is enabled. */
export async function startSecret(db: Tx, userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(twoFactorSecrets)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { secretSealed, lastStep: null, createdAt: new Date() },
      setWhere: isNull(twoFactorSecrets.enabledAt),
    })
    .returning({ userId: twoFactorSecrets.userId });
  return rows.length === 1;
}

/**
 * Records `step` as used. Only a step newer than the last one used wins, so of two requests with
 * the same code only one passes, and an older code never comes back.
 */
export async function claimStep(db: Tx, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactorSecrets)
    .set({ lastStep: step })
    .where(
      and(
        eq(twoFactorSecrets.userId, userId),
        or(isNull(twoFactorSecrets.lastStep), lt(twoFactorSecrets.lastStep, step)),
      ),
    )
    .returning({ userId: twoFactorSecrets.userId });
  return rows.length === 1;
}

export async function enable(db: Tx, userId: string, codeHashes: string[], ids: string[]) {
  await db
    .update(twoFactorSecrets)
    .set({ enabledAt: new Date() })
    .where(eq(twoFactorSecrets.userId, userId));
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db
    .insert(twoFactorRecoveryCodes)
    .values(codeHashes.map((codeHash, i) => ({ id: ids[i]!, userId, codeHash })));
}

/** Deletes the old recovery codes and stores the new set. */
export async function replaceRecoveryCodes(
  db: Tx,
  userId: string,
  codeHashes: string[],
  ids: string[],
): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db
    .insert(twoFactorRecoveryCodes)
    .values(codeHashes.map((codeHash, i) => ({ id: ids[i]!, userId, codeHash })));
}

export async function disable(db: Tx, userId: string): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
}

/** Uses a recovery code up; false when unknown or already used (also when two race for it). */
export async function useRecoveryCode(db: Tx, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length === 1;
}

export async function recoveryCodesLeft(db: Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function isEnabled(db: Tx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: twoFactorSecrets.userId })
    .from(twoFactorSecrets)
    .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)))
    .limit(1);
  return rows.length === 1;
}
