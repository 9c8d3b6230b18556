import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { emailChanges, emailCodes, knownDevices, refreshTokens } from './tables.ts';

export type RefreshRow = typeof refreshTokens.$inferSelect;
export type CodePurpose = 'activation' | 'password_reset';

export async function insertRefreshToken(
  db: Tx,
  row: {
    id: string;
    userId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
    userAgent: string | null;
    address: string;
    place: string | null;
    deviceHash: string;
  },
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

// Devices and sign-ins (ADR 058).

/**
 * Whether the account signed in from this device before (`known`), and whether it has any device
 * history at all (`history`): a sign-up's token row counts, so the first sign-in after it is known.
 */
export async function deviceSeen(
  db: Tx,
  userId: string,
  deviceHash: string,
): Promise<{ known: boolean; history: boolean }> {
  const res = await db.execute<{ known: boolean; history: boolean }>(sql`select
    exists(select 1 from ${knownDevices} where user_id = ${userId} and device_hash = ${deviceHash})
      or exists(select 1 from ${refreshTokens} where user_id = ${userId} and device_hash = ${deviceHash})
      as known,
    exists(select 1 from ${knownDevices} where user_id = ${userId})
      or exists(select 1 from ${refreshTokens} where user_id = ${userId} and device_hash is not null)
      as history`);
  const row = res.rows[0];
  return { known: Boolean(row?.known), history: Boolean(row?.history) };
}

/** Records the device; true only for the request that recorded it first (two racing mail once). */
export async function rememberDevice(db: Tx, userId: string, deviceHash: string) {
  const rows = await db
    .insert(knownDevices)
    .values({ userId, deviceHash })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  return rows.length === 1;
}

/** A family with a live refresh token: an active sign-in. */
const live = sql`${refreshTokens.revokedAt} is null and ${refreshTokens.usedAt} is null and ${refreshTokens.expiresAt} > now()`;

export interface SignInRow {
  familyId: string;
  userAgent: string | null;
  address: string | null;
  place: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * The user's active sign-ins, newest first: each family's first token dates it, its newest says
 * when and from where it was last seen (every refresh writes one).
 */
export async function activeSignIns(db: Tx, userId: string, limit: number): Promise<SignInRow[]> {
  const res = await db.execute<{
    family_id: string;
    user_agent: string | null;
    address: string | null;
    place: string | null;
    created_at: Date | string;
    last_seen_at: Date | string;
  }>(sql`select family_id,
      (array_agg(user_agent order by created_at desc))[1] as user_agent,
      (array_agg(address order by created_at desc))[1] as address,
      (array_agg(place order by created_at desc))[1] as place,
      min(created_at) as created_at, max(created_at) as last_seen_at
    from ${refreshTokens}
    where user_id = ${userId}
      and family_id in (select family_id from ${refreshTokens} where user_id = ${userId} and ${live})
    group by family_id
    order by max(created_at) desc
    limit ${limit}`);
  return res.rows.map((r) => ({
    familyId: r.family_id,
    userAgent: r.user_agent,
    address: r.address,
    place: r.place,
    createdAt: new Date(r.created_at),
    lastSeenAt: new Date(r.last_seen_at),
  }));
}

/** Whether `familyId` is an active sign-in of this user (another user's answers false). */
export async function isActiveFamilyOf(db: Tx, userId: string, familyId: string) {
  const rows = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), live))
    .limit(1);
  return rows.length === 1;
}

/** The user's active sign-ins but `keep`. */
export async function activeFamiliesExcept(db: Tx, userId: string, keep: string) {
  const rows = await db
    .selectDistinct({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), ne(refreshTokens.familyId, keep), live));
  return rows.map((r) => r.familyId);
}

/** Revokes every token of the user outside `keep`. */
export async function revokeAllExcept(db: Tx, userId: string, keep: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        ne(refreshTokens.familyId, keep),
        isNull(refreshTokens.revokedAt),
      ),
    );
}

// E-mail changes (ADR 058).

/** Retires the user's pending changes: a newer request, or a new password, replaces them. */
export async function cancelEmailChanges(db: Tx, userId: string): Promise<void> {
  await db
    .update(emailChanges)
    .set({ consumedAt: new Date() })
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.consumedAt)));
}

export async function insertEmailChange(
  db: Tx,
  row: { id: string; userId: string; newEmail: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(emailChanges).values(row);
}

export async function pendingEmailChange(db: Tx, userId: string) {
  const rows = await db
    .select({ newEmail: emailChanges.newEmail, expiresAt: emailChanges.expiresAt })
    .from(emailChanges)
    .where(
      and(
        eq(emailChanges.userId, userId),
        isNull(emailChanges.consumedAt),
        gt(emailChanges.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailChanges.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

/** Uses up a live link: of two requests with it, one wins; expired and used ones win nothing. */
export async function consumeEmailChange(db: Tx, tokenHash: string) {
  const rows = await db
    .update(emailChanges)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(emailChanges.tokenHash, tokenHash),
        isNull(emailChanges.consumedAt),
        gt(emailChanges.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
  return rows[0] ?? null;
}
