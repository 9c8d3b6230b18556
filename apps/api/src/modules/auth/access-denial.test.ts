import { authRoutes, usersRoutes, type LoginResponse } from '@tradeshelf/contract';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';
import { profileStatus, refreshSession } from '../../../test/sessions.ts';
import { buildApp } from '../../app.ts';
import { createDeps } from '../../deps.ts';
import { connectDatabase } from '../../db/client.ts';
import { ISSUER } from '../../platform/tokens.ts';
import { SessionDenials } from './denials.ts';

const t = useTestApp();

const login = async (email: string, password = DEFAULT_PASSWORD) =>
  (await t.call(authRoutes.login, { body: { email, password } })).json() as LoginResponse;

/** A token signed with the app's own key, with the claims a test chooses. */
async function forge(
  claims: Record<string, unknown>,
  times: { iat?: number; exp?: number | null } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ typ: 'access', email: 'x@example.com', roles: ['buyer'], ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience('tradeshelf:api')
    .setIssuedAt(times.iat ?? now);
  if (times.exp !== null) jwt = jwt.setExpirationTime(times.exp ?? now + 600);
  return jwt.sign(new TextEncoder().encode(t.config.JWT_SECRET));
}

describe('access token claims', () => {
  it('refuses a token without exp, without a session id, or living past the configured lifetime', async () => {
    const user = await createUser(t);
    const now = Math.floor(Date.now() / 1000);
    const good = await forge({ sub: user.id, sid: 'fam_forged' });
    expect(await profileStatus(t, good)).toBe(200);
    expect(await profileStatus(t, await forge({ sub: user.id, sid: 'fam_x' }, { exp: null }))).toBe(
      401,
    );
    expect(await profileStatus(t, await forge({ sub: user.id }))).toBe(401);
    // Issued 20 minutes ago with a day to run: older than any token this app signs (15 minutes).
    const long = await forge(
      { sub: user.id, sid: 'fam_y' },
      { iat: now - 1200, exp: now + 86_400 },
    );
    expect(await profileStatus(t, long)).toBe(401);
  });
});

describe('access tokens of an ended session are refused too', () => {
  it('refresh-token reuse ends the family: every access token it issued, not other sign-ins', async () => {
    const user = await createUser(t);
    const first = await login(user.email);
    const other = await login(user.email);
    const rotated = (await refreshSession(t, user.id, first.refreshToken)).json();
    expect(await profileStatus(t, rotated.authentication_token)).toBe(200);

    const reuse = await refreshSession(t, user.id, first.refreshToken);
    expect(reuse.json().code).toBe('token_reused');
    expect(await profileStatus(t, first.token)).toBe(401);
    expect(await profileStatus(t, rotated.authentication_token)).toBe(401);
    expect(await profileStatus(t, other.token)).toBe(200);
  });

  it('logout ends that session’s access tokens only', async () => {
    const user = await createUser(t);
    const a = await login(user.email);
    const b = await login(user.email);
    await t.call(authRoutes.logout, { body: { refresh_token: a.refreshToken } });
    expect(await profileStatus(t, a.token)).toBe(401);
    expect(await profileStatus(t, b.token)).toBe(200);
  });

  it('a password change ends every other session, vendor tokens included; the new pair works', async () => {
    const user = await createUser(t);
    const phone = await login(user.email);
    const laptop = await login(user.email);
    const vendor = (await t.call(usersRoutes.addVendorRole, { token: phone.token })).json();
    const changed = await t.call(authRoutes.changePassword, {
      token: laptop.token,
      body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'brand-new-pass-1' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await profileStatus(t, phone.token)).toBe(401);
    expect(await profileStatus(t, laptop.token)).toBe(401);
    expect(await t.deps.tokens.verify(vendor.token as string, ['tradeshelf:vendor'])).toBeNull();
    expect(await profileStatus(t, changed.json().token)).toBe(200);
  });

  it('a password reset by e-mailed code ends every session', async () => {
    const user = await createUser(t);
    const session = await login(user.email);
    await t.call(authRoutes.sendForgotPasswordEmail, { body: { email: user.email } });
    await t.jobs.settle();
    const code = t.smtp.codeFor(user.email)!;
    const reset = await t.call(authRoutes.resetForgotPassword, {
      body: { email: user.email, code, password: 'brand-new-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await profileStatus(t, session.token)).toBe(401);
  });
});

describe('several API nodes', () => {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

  it('a node started after the reuse refuses the family’s tokens (denials live in PostgreSQL)', async () => {
    const user = await createUser(t);
    const s = await login(user.email);
    await refreshSession(t, user.id, s.refreshToken);
    await refreshSession(t, user.id, s.refreshToken);
    const deps = createDeps(t.config, t.database, quiet);
    const nodeB = await buildApp(deps);
    try {
      expect(await profileStatus(t, s.token, nodeB)).toBe(401);
    } finally {
      await nodeB.close();
      await deps.close();
    }
  });

  it('a running node learns of a denial once its copy is older than its sync interval', async () => {
    const user = await createUser(t);
    const s = await login(user.email);
    // Interval 0: every verification reads what other nodes denied since the last one.
    const deps = createDeps(t.config, t.database, quiet, { denialSyncMs: 0 });
    const nodeB = await buildApp(deps);
    try {
      expect(await profileStatus(t, s.token, nodeB)).toBe(200);
      await refreshSession(t, user.id, s.refreshToken);
      await refreshSession(t, user.id, s.refreshToken);
      expect(await profileStatus(t, s.token, nodeB)).toBe(401);
    } finally {
      await nodeB.close();
      await deps.close();
    }
  });
});

describe('a node’s copy of the denials', () => {
  it('is re-read once older than the interval, not on every check', async () => {
    let clock = Date.now();
    const node = new SessionDenials(t.database.db, 900, { syncMs: 5_000, now: () => clock });
    const writer = new SessionDenials(t.database.db, 900);
    expect(await node.isDenied('fam_later')).toBe(false);
    await t.database.db.transaction((tx) => writer.record(tx, 'usr_x', ['fam_later'], 'logout'));
    clock += 4_000;
    expect(await node.isDenied('fam_later')).toBe(false);
    clock += 1_000;
    expect(await node.isDenied('fam_later')).toBe(true);
  });

  it('keeps verifying with what it knows when the database is unreachable', async () => {
    const gone = connectDatabase(t.config.DATABASE_URL!, 1);
    await gone.close();
    const errors: unknown[] = [];
    const node = new SessionDenials(gone.db, 900, { onError: (e) => errors.push(e) });
    node.remember([{ familyId: 'fam_known', until: Date.now() + 60_000 }]);
    expect(await node.isDenied('fam_known')).toBe(true);
    expect(await node.isDenied('fam_other')).toBe(false);
    expect(errors).toHaveLength(1);
  });
});
