import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { users } from './tables.ts';
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

/** Sets the username; returns null when another account holds it (case-insensitive). */
export async function setUsername(db: Conn, id: string, username: string): Promise<UserRow | null> {
  try {
    const rows = await db
      .update(users)
      .set({ username, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return rows[0] ?? null;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/**
 * Sets the username only while the account has none. Returns 'set', 'kept' (it already had one or
 * is gone) or 'taken' (another account holds that name).
 */
export async function fillUsername(
  db: Conn,
  id: string,
  username: string,
): Promise<'set' | 'kept' | 'taken'> {
  try {
    const rows = await db
      .update(users)
      .set({ username, updatedAt: new Date() })
      .where(and(eq(users.id, id), isNull(users.username)))
      .returning({ id: users.id });
    return rows.length ? 'set' : 'kept';
  } catch (err) {
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
