import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { usernameHolds, users } from './tables.ts';
import { isUniqueViolation } from '../../db/errors.ts';

export type UserRow = typeof users.$inferSelect;
type Conn = Db | Tx;

export async function findUserByEmail(db: Conn, email: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Conn, id: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Of `ids`, those whose e-mail or username contains `q` (LIKE wildcards in `q` match literally). */
export async function findUserIdsMatching(db: Conn, ids: string[], q: string): Promise<string[]> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        sql`(lower(${users.email}) like ${pattern} or lower(${users.username}) like ${pattern})`,
      ),
    );
  return rows.map((r) => r.id);
}

export async function findUsersByIds(db: Conn, ids: string[]): Promise<UserRow[]> {
  return db.select().from(users).where(inArray(users.id, ids));
}

/** Inserts a user; returns null when the e-mail is already taken (unique index on lower(email)). */
export async function insertUser(
  db: Conn,
  values: {
    id: string;
    email: string;
    passwordHash: string;
    roles?: string[];
    username?: string | null;
    emailVerifiedAt?: Date | null;
  },
): Promise<UserRow | null> {
  const rows = await db.insert(users).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function updatePasswordHash(
  db: Conn,
  id: string,
  passwordHash: string,
): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function markEmailVerified(db: Conn, id: string): Promise<void> {
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/**
 * Serialises every claim of one name (any case) until the transaction ends: with it, "is it free
 * or held?" and the update that takes it cannot be split by another claim or a release.
 */
export async function lockName(tx: Tx, name: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`username:${name.toLowerCase()}`}, 0))`,
  );
}

/** Another account has the name, or gave it up less than the hold ago (ADR 058). */
export async function nameUnavailable(tx: Tx, userId: string, name: string): Promise<boolean> {
  const res = await tx.execute<{ unavailable: boolean }>(sql`select
    exists(select 1 from ${users} where lower(${users.username}) = lower(${name}) and ${users.id} <> ${userId})
    or exists(select 1 from ${usernameHolds} where ${usernameHolds.name} = lower(${name})
      and ${usernameHolds.userId} <> ${userId} and ${usernameHolds.heldUntil} > now())
    as unavailable`);
  return Boolean(res.rows[0]?.unavailable);
}

/** The account's row, locked for the rest of the transaction. */
export async function lockUser(tx: Tx, id: string): Promise<UserRow | null> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return rows[0] ?? null;
}

/**
 * Writes a new username; a change of a chosen one is dated (the next may come 30 days later) and
 * holds the old name for its owner; taking back one's own held name ends that hold.
 */
export async function writeUsername(
  tx: Tx,
  row: UserRow,
  username: string,
  holdDays: number,
): Promise<UserRow> {
  const changing = row.username !== null;
  const [updated] = await tx
    .update(users)
    .set({
      username,
      updatedAt: new Date(),
      ...(changing ? { usernameChangedAt: sql`now()` } : {}),
    })
    .where(eq(users.id, row.id))
    .returning();
  if (changing && row.username!.toLowerCase() !== username.toLowerCase()) {
    await tx
      .insert(usernameHolds)
      .values({
        name: row.username!.toLowerCase(),
        userId: row.id,
        heldUntil: sql`now() + make_interval(days => ${holdDays})`,
      })
      .onConflictDoUpdate({
        target: usernameHolds.name,
        set: { userId: row.id, heldUntil: sql`excluded.held_until` },
      });
  }
  // Released holds are only read past; tidy them (and the one just taken back) while writing.
  await tx.execute(
    sql`delete from ${usernameHolds} where ${usernameHolds.heldUntil} <= now()
      or (${usernameHolds.name} = lower(${username}) and ${usernameHolds.userId} = ${row.id})`,
  );
  return updated!;
}

/** A confirmed new address (ADR 058): the link proved the mailbox, so it counts as verified. */
export async function setEmail(db: Conn, id: string, email: string): Promise<UserRow | null> {
  const rows = await db
    .update(users)
    .set({ email, emailVerifiedAt: sql`now()`, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return rows[0] ?? null;
}

/**
 * Sets the username only while the account has none. Returns 'set', 'kept' (it already had one or
 * is gone) or 'taken' (another account holds that name).
 */
export async function fillUsername(
  db: Db,
  id: string,
  username: string,
): Promise<'set' | 'kept' | 'taken'> {
  try {
    return await db.transaction(async (tx) => {
      await lockName(tx, username);
      if (await nameUnavailable(tx, id, username)) return 'taken';
      const rows = await tx
        .update(users)
        .set({ username, updatedAt: new Date() })
        .where(and(eq(users.id, id), isNull(users.username)))
        .returning({ id: users.id });
      return rows.length ? 'set' : 'kept';
    });
  } catch (err) {
    // A name written without the lock (seed, support) still meets the unique index.
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

export async function addRole(db: Conn, id: string, role: string): Promise<UserRow | null> {
  const rows = await db
    .update(users)
    .set({
      roles: sql`case when ${role} = any(${users.roles}) then ${users.roles} else array_append(${users.roles}, ${role}::text) end`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return rows[0] ?? null;
}

/** Swaps the avatar key; returns the row and the key it replaced. */
export async function setAvatarKey(
  db: Db,
  id: string,
  key: string,
): Promise<{ user: UserRow; previous: string | null } | null> {
  return db.transaction(async (tx) => {
    const current = await tx
      .select({ avatarKey: users.avatarKey })
      .from(users)
      .where(and(eq(users.id, id)))
      .for('update');
    if (!current[0]) return null;
    const rows = await tx
      .update(users)
      .set({ avatarKey: key, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return { user: rows[0]!, previous: current[0].avatarKey };
  });
}
