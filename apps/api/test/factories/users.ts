import type { Role } from '@tradeshelf/contract';
import { newId } from '../../src/lib.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { insertUser, type UserRow } from '../../src/modules/users/repository.ts';
import type { TestApp } from '../harness.ts';

export const DEFAULT_PASSWORD = 'correct-horse-42';
let seq = 0;
let cachedHash: Promise<string> | null = null;

/** Inserts a user straight into the database (fast; no rate limits, no mail). */
export async function createUser(
  t: TestApp,
  overrides: Partial<{
    email: string;
    password: string;
    username: string | null;
    roles: string[];
    verified: boolean;
    createdAt: Date;
  }> = {},
): Promise<UserRow & { password: string }> {
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const passwordHash =
    password === DEFAULT_PASSWORD
      ? await (cachedHash ??= hashPassword(DEFAULT_PASSWORD))
      : await hashPassword(password);
  const row = await insertUser(t.database.db, {
    id: newId('usr'),
    email: overrides.email ?? `user${++seq}-${Math.random().toString(36).slice(2, 7)}@example.com`,
    passwordHash,
    username: overrides.username === undefined ? null : overrides.username,
    roles: overrides.roles ?? ['buyer'],
    emailVerifiedAt: overrides.verified === false ? null : new Date(),
  });
  if (!row) throw new Error('factory: e-mail taken');
  if (overrides.createdAt) {
    const { users } = await import('../../src/modules/users/tables.ts');
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(users)
      .set({ createdAt: overrides.createdAt })
      .where(eq(users.id, row.id));
    row.createdAt = overrides.createdAt;
  }
  return { ...row, password };
}

/** An access token for `user`, as signing in gives: its own e-mail, and a buyer unless `roles` says. */
export const userToken = (
  t: TestApp,
  user: { id: string; email: string },
  roles: Role[] = ['buyer'],
) => t.deps.tokens.sign({ sub: user.id, email: user.email, roles });
