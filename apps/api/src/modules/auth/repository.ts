import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { emailCodes, refreshTokens } from './tables.ts';

export type RefreshRow = typeof refreshTokens.$inferSelect;
export type CodePurpose = 'activation' | 'password_reset';

export async function insertRefreshToken(
  db: Tx,
  row: { id: string; userId: string; familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(row);
}

export async function findRefreshByHash(db: Tx, tokenHash: string): Promise<RefreshRow | null> {
  const rows = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return rows[0] ?? null;
}

/** Marks a live token used. Only one caller can win: the loser sees null and treats it as reuse. */
export async function claimRefreshToken(db: Tx, id: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.id, id),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeFamily(db: Tx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: Tx, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Families of the user that issued a token in the last `seconds`: those that may hold live access tokens. */
export async function recentFamilies(db: Tx, userId: string, seconds: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.userId, userId),
        gt(refreshTokens.createdAt, sql`now() - make_interval(secs => ${seconds})`),
      ),
    );
  return rows.map((r) => r.familyId);
}

/**
 * Stores a new code and retires any earlier live code for the same purpose. Call in a transaction:
 * the lock makes two issues for one account (jobs run concurrently) leave one live code.
 */
export async function replaceCode(
  db: Tx,
  row: { id: string; userId: string; purpose: CodePurpose; codeHash: string; expiresAt: Date },
): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`email_codes:${row.userId}:${row.purpose}`}, 0))`,
  );
  await db
    .update(emailCodes)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(emailCodes.userId, row.userId),
        eq(emailCodes.purpose, row.purpose),
        isNull(emailCodes.consumedAt),
      ),
    );
  await db.insert(emailCodes).values(row);
}

/** The newest live code (a plain read: checking a code writes nothing unless it is right). */
export async function findLiveCode(db: Tx, userId: string, purpose: CodePurpose) {
  const rows = await db
    .select()
    .from(emailCodes)
    .where(
      and(
        eq(emailCodes.userId, userId),
        eq(emailCodes.purpose, purpose),
        isNull(emailCodes.consumedAt),
        gt(emailCodes.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailCodes.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

/** Uses up a live code; false when another request used it first. */
export async function consumeCode(db: Tx, id: string): Promise<boolean> {
  const rows = await db
    .update(emailCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  return rows.length === 1;
}
