// Passkey rows (ADR 054): credentials, the accounts' user handles and the ceremonies' challenges.
import { and, asc, count, eq, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { passkeyChallenges, passkeyHandles, passkeys } from './tables.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengePurpose = (typeof passkeyChallenges.$inferSelect)['purpose'];

/** Expired challenges deleted per new one: the table stays as small as what is live. */
const SWEEP_PER_INSERT = 50;

export async function listOf(db: Tx, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countOf(db: Tx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

export async function hasAny(db: Tx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return rows.length === 1;
}

/** One of the user's passkeys by our id; another user's answers null, as an unknown one does. */
export async function findOwn(db: Tx, userId: string, id: string): Promise<PasskeyRow | null> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findByCredentialId(db: Tx, credentialId: string) {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, credentialId))
    .limit(1);
  return rows[0] ?? null;
}

/** Stores a new passkey; null when the credential is already registered (to anyone). */
export async function insert(db: Tx, row: typeof passkeys.$inferInsert) {
  const rows = await db.insert(passkeys).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function rename(db: Tx, userId: string, id: string, name: string) {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return rows[0] ?? null;
}

export async function remove(db: Tx, userId: string, id: string): Promise<PasskeyRow | null> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return rows[0] ?? null;
}

/**
 * Records a use: the counter only moves forward (an authenticator that keeps none reports 0 every
 * time), so of two answers racing with one counter value only one is taken.
 */
export async function recordUse(
  db: Tx,
  id: string,
  counter: number,
  backedUp: boolean,
): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter, backedUp, lastUsedAt: new Date() })
    .where(
      and(
        eq(passkeys.id, id),
        counter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, counter),
      ),
    )
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

/** The account's user handle, made on first use; two racing requests end with the same one. */
export async function handleOf(db: Tx, userId: string, fresh: string): Promise<string> {
  await db.insert(passkeyHandles).values({ userId, handle: fresh }).onConflictDoNothing();
  const rows = await db
    .select({ handle: passkeyHandles.handle })
    .from(passkeyHandles)
    .where(eq(passkeyHandles.userId, userId))
    .limit(1);
  return rows[0]!.handle;
}

export async function existingHandleOf(db: Tx, userId: string): Promise<string | null> {
  const rows = await db
    .select({ handle: passkeyHandles.handle })
    .from(passkeyHandles)
    .where(eq(passkeyHandles.userId, userId))
    .limit(1);
  return rows[0]?.handle ?? null;
}

export async function saveChallenge(
  db: Tx,
  row: { challengeHash: string; purpose: ChallengePurpose; userId: string | null; expiresAt: Date },
): Promise<void> {
  await db.execute(sql`delete from ${passkeyChallenges} where challenge_hash in (
      select challenge_hash from ${passkeyChallenges} where expires_at < now()
      limit ${SWEEP_PER_INSERT})`);
  await db.insert(passkeyChallenges).values(row);
}

/**
 * Uses a challenge up: the delete that finds it is the only one that can, so an answer replayed,
 * or two racing, get nothing, and any answer spends it, right or wrong. True only when it was
 * live and made for this purpose and user (null: signing in without a password).
 */
export async function takeChallenge(
  db: Tx,
  challengeHash: string,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<boolean> {
  const rows = await db
    .delete(passkeyChallenges)
    .where(eq(passkeyChallenges.challengeHash, challengeHash))
    .returning({
      purpose: passkeyChallenges.purpose,
      userId: passkeyChallenges.userId,
      live: sql<boolean>`${passkeyChallenges.expiresAt} > now()`,
    });
  const row = rows[0];
  return Boolean(row?.live) && row!.purpose === purpose && row!.userId === userId;
}
