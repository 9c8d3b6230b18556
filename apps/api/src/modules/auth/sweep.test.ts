import { authRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';
import { sweepEndedSessions } from './index.ts';

// The daily sweep of ended sign-ins: what it deletes, and what a live sign-in keeps.

const t = useTestApp();

async function signIn() {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { user, login: res.json() as { refreshToken: string; id: string } };
}

const refresh = (login: { id: string; refreshToken: string }) =>
  t.call(authRoutes.refreshToken, {
    body: { user_id: login.id, refresh_token: login.refreshToken },
    token: login.refreshToken,
  });

const count = async (table: string, userId: string) =>
  Number(
    (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}`,
      )
    ).rows[0]!.n,
  );

describe('sweepEndedSessions', () => {
  it('deletes families ended over a day ago, old codes and denials; keeps what still lives', async () => {
    const ended = await signIn();
    const live = await signIn();
    // The live family rotated once: its first token is used and long expired, its new one lives.
    const rotated = await refresh(live.login);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const db = t.database.db;
    await db.execute(sql`update refresh_tokens set expires_at = now() - interval '3 days'
      where user_id = ${ended.user.id}`);
    await db.execute(sql`update refresh_tokens set expires_at = now() - interval '3 days'
      where user_id = ${live.user.id} and used_at is not null`);
    await db.execute(sql`insert into email_codes (id, user_id, purpose, code_hash, expires_at) values
      ('ec_old', ${ended.user.id}, 'activation', 'x', now() - interval '2 days'),
      ('ec_new', ${ended.user.id}, 'activation', 'y', now() + interval '1 hour')`);
    await db.execute(sql`insert into denied_sessions (family_id, user_id, reason, expires_at) values
      ('fam_sweep_old', ${ended.user.id}, 'logout', now() - interval '2 days'),
      ('fam_sweep_new', ${ended.user.id}, 'logout', now() + interval '10 minutes')`);

    const done = await sweepEndedSessions(db);
    expect(done.refreshTokens).toBeGreaterThanOrEqual(1);
    expect(done.codes).toBeGreaterThanOrEqual(1);
    expect(done.denials).toBeGreaterThanOrEqual(1);
    expect(await count('refresh_tokens', ended.user.id)).toBe(0);
    // A family with a live token keeps all of it: presenting its used token is still reuse.
    expect(await count('refresh_tokens', live.user.id)).toBe(2);
    expect(await count('email_codes', ended.user.id)).toBe(1);
    expect(await count('denied_sessions', ended.user.id)).toBe(1);
    const reuse = await refresh(live.login);
    expect(reuse.statusCode).toBe(401);
    // Run again: nothing more to do.
    expect(await sweepEndedSessions(db)).toEqual({ refreshTokens: 0, codes: 0, denials: 0 });
  });
});
