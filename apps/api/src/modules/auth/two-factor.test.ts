import { authRoutes, ordersRoutes, twoFactorMessages } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { enrolTwoFactor, totpCode } from '../../../test/factories/two-factor.ts';
import { nextIp, useTestApp } from '../../../test/harness.ts';
import { rules } from '../../platform/rate-limit.ts';

/** Issue 33, ADR 054: TOTP two-factor authentication through HTTP. */

const t = useTestApp();

async function signedIn() {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  expect(res.statusCode).toBe(200);
  return { user, token: res.json().token as string };
}

async function challengeOf(email: string, password: string) {
  const res = await t.call(authRoutes.login, { ip: nextIp(), body: { email, password } });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ twoFactorRequired: true, expiresIn: 300 });
  expect(body.token).toBeUndefined();
  expect(body.refreshToken).toBeUndefined();
  return body.challenge as string;
}

const secondStep = (challenge: string, code: string, ip = nextIp()) =>
  t.call(authRoutes.loginTwoFactor, { ip, body: { challenge, code } });

describe('two-factor authentication', () => {
  it('enrols only once a first code confirms it; the secret is sealed at rest', async () => {
    const { user, token } = await signedIn();
    const setup = await t.call(authRoutes.twoFactorSetup, { token });
    expect(setup.statusCode).toBe(200);
    const { secret, uri } = setup.json();
    expect(uri).toMatch(/^otpauth:\/\/totp\/Tradeshelf:.+\?.*secret=/);
    expect(uri).toContain(`secret=${secret}`);
    expect((await t.call(authRoutes.twoFactorStatus, { token })).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    // Not on yet: the password alone still signs in.
    const plain = await t.call(authRoutes.login, {
      body: { email: user.email, password: user.password },
    });
    expect(plain.json().token).toBeTypeOf('string');

    const wrong = await t.call(authRoutes.twoFactorConfirm, { token, body: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.call(authRoutes.twoFactorConfirm, {
      token,
      body: { code: totpCode(secret) },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const codes = ok.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await t.call(authRoutes.twoFactorStatus, { token })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    const stored = await t.database.db.execute<{ secret_sealed: string }>(
      sql`select secret_sealed from two_factor_secrets where user_id = ${user.id}`,
    );
    expect(stored.rows[0]!.secret_sealed).not.toContain(secret);
    const hashes = await t.database.db.execute<{ code_hash: string }>(
      sql`select code_hash from two_factor_recovery_codes where user_id = ${user.id}`,
    );
    expect(hashes.rows.map((r) => r.code_hash)).not.toContain(codes[0]);
    // On: starting again is refused rather than replacing the secret.
    expect((await t.call(authRoutes.twoFactorSetup, { token })).statusCode).toBe(409);
  });

  it('login needs the second step; ±1 step accepted, ±2 refused, a used code refused', async () => {
    const { user, token } = await signedIn();
    const { secret } = (await t.call(authRoutes.twoFactorSetup, { token })).json();
    // One step behind (a slow phone clock) confirms.
    const confirmed = await t.call(authRoutes.twoFactorConfirm, {
      token,
      body: { code: totpCode(secret, -1) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const challenge = await challengeOf(user.email, user.password);

    expect((await secondStep(challenge, totpCode(secret, 2))).statusCode).toBe(400);
    expect((await secondStep(challenge, totpCode(secret, -2))).statusCode).toBe(400);

    // One step ahead signs in, with the session a password login gives.
    const ahead = totpCode(secret, 1);
    const res = await secondStep(challenge, ahead);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, emailVerified: true });
    expect(res.json().token).toBeTypeOf('string');
    expect(res.json().refreshToken).toBeTypeOf('string');

    // Replay: the same code again, and an older one after a newer, are refused.
    const replay = await secondStep(challenge, ahead);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe(twoFactorMessages.invalidCode);
    expect((await secondStep(challenge, totpCode(secret, 0))).statusCode).toBe(400);
  });

  it('a recovery code signs in once; a forged or expired challenge is refused', async () => {
    const { user, token } = await signedIn();
    const { recoveryCodes } = await enrolTwoFactor(t, token);
    const challenge = await challengeOf(user.email, user.password);
    const code = recoveryCodes[3]!;
    const first = await secondStep(challenge, code.toUpperCase());
    expect(first.statusCode, first.body).toBe(200);
    expect((await secondStep(challenge, code)).statusCode).toBe(400);
    expect(
      (await t.call(authRoutes.twoFactorStatus, { token: first.json().token })).json(),
    ).toEqual({ enabled: true, recoveryCodesLeft: 9 });

    const forged = challenge.replace(/\.[^.]+$/, '.AAAA');
    const refused = await secondStep(forged, recoveryCodes[4]!);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(twoFactorMessages.challengeExpired);
  });

  it('wrong codes lock the second step like wrong passwords', async () => {
    const { user, token } = await signedIn();
    const { secret } = await enrolTwoFactor(t, token);
    const challenge = await challengeOf(user.email, user.password);
    for (let i = 0; i < rules.twoFactorAttempts.limit; i++)
      expect((await secondStep(challenge, '000000')).statusCode).toBe(400);
    const locked = await secondStep(challenge, totpCode(secret, 1));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('disable needs a current code or the password, then login is one step again', async () => {
    const { user, token } = await signedIn();
    const { nextCode } = await enrolTwoFactor(t, token);
    const none = await t.call(authRoutes.twoFactorDisable, { token, body: {} });
    expect(none.statusCode).toBe(400);
    const badPassword = await t.call(authRoutes.twoFactorDisable, {
      token,
      body: { password: 'not-the-password-1' },
    });
    expect(badPassword.statusCode).toBe(422);
    const off = await t.call(authRoutes.twoFactorDisable, { token, body: { code: nextCode() } });
    expect(off.statusCode, off.body).toBe(200);
    const plain = await t.call(authRoutes.login, {
      body: { email: user.email, password: user.password },
    });
    expect(plain.json().token).toBeTypeOf('string');

    // Again, off with the password this time.
    await enrolTwoFactor(t, token);
    const byPassword = await t.call(authRoutes.twoFactorDisable, {
      token,
      body: { password: user.password },
    });
    expect(byPassword.statusCode, byPassword.body).toBe(200);
  });

  it('the payout account cannot change without two-factor on and a fresh code', async () => {
    const { token } = await signedIn();
    const without = await t.call(ordersRoutes.connectAccount, {
      token,
      query: { as: 'affiliate' },
      body: {},
    });
    expect(without.statusCode).toBe(403);
    expect(without.json().error).toBe(twoFactorMessages.required);

    const { secret, nextCode } = await enrolTwoFactor(t, token);
    const noCode = await t.call(ordersRoutes.connectAccount, {
      token,
      query: { as: 'affiliate' },
      body: {},
    });
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().error).toBe(twoFactorMessages.codeRequired);
    const wrong = await t.call(ordersRoutes.connectAccount, {
      token,
      query: { as: 'affiliate' },
      body: { twoFactorCode: totpCode(secret, 3) },
    });
    expect(wrong.statusCode).toBe(400);
    const started = await t.call(ordersRoutes.connectAccount, {
      token,
      query: { as: 'affiliate' },
      body: { twoFactorCode: nextCode() },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().url).toBeTypeOf('string');
  });
});
