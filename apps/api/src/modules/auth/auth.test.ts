import { authMessages, authRoutes, usersRoutes, type LoginResponse } from '@tradeshelf/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { emailCodes, refreshTokens } from './tables.ts';

const t = useTestApp();

const login = async (email: string, password = DEFAULT_PASSWORD) => {
  const res = await t.call(authRoutes.login, { body: { email, password } });
  return { res, body: res.json() as LoginResponse };
};

describe('signup', () => {
  it('limits sign-ups per address to SIGNUP_LIMIT_PER_IP_HOUR, then answers 429 and creates nobody', async () => {
    const limited = await startTestApp({ SIGNUP_LIMIT_PER_IP_HOUR: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.call(authRoutes.signupBuyer, {
          ip: '198.51.100.40',
          body: { email: `limit-${i}@example.com`, password: 'market-maker-77' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      const other = await limited.call(authRoutes.signupBuyer, {
        ip: '198.51.100.41',
        body: { email: 'limit-other@example.com', password: 'market-maker-77' },
      });
      expect(other.statusCode).toBe(201);
      const refused = await limited.call(authRoutes.login, {
        body: { email: 'limit-3@example.com', password: 'market-maker-77' },
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('creates an unverified buyer, signs them in and mails an activation code', async () => {
    const email = 'New.Buyer@Example.com';
    const res = await t.call(authRoutes.signupBuyer, {
      body: { email, password: 'market-maker-77' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as LoginResponse;
    expect(body).toMatchObject({
      email: 'new.buyer@example.com',
      accessTokenValidity: 900,
      refreshTokenValidity: 43_200,
      emailVerified: false,
      verificationDaysRemaining: 7,
    });
    expect(body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The activation mail is a job after the answer (ADR 003).
    await t.jobs.settle();
    expect(t.smtp.codeFor('new.buyer@example.com')).toMatch(/^\d{6}$/);
    const profile = await t.call(usersRoutes.getProfile, { token: body.token });
    expect(profile.json()).toMatchObject({
      user: { email: 'new.buyer@example.com', username: '', roles: ['buyer'] },
    });
  });

  it('rejects weak, common and overlong passwords and bad e-mails with field messages', async () => {
    for (const [body, field] of [
      [{ email: 'x@example.com', password: 'short' }, 'password'],
      [{ email: 'x@example.com', password: 'password123' }, 'password'],
      [{ email: 'x@example.com', password: 'a'.repeat(129) }, 'password'],
      [{ email: 'not-an-email', password: 'market-maker-77' }, 'email'],
    ] as const) {
      const res = await t.call(authRoutes.signupBuyer, { body });
      expect(res.statusCode).toBe(400);
      const err = res.json();
      expect(err.code).toBe('validation_failed');
      expect(err.fields[field]).toEqual(expect.any(String));
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/auth/signup/buyer',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      error: 'The request body is not valid JSON.',
      code: 'bad_request',
    });
  });

  it('answers 409 for a taken e-mail with another password, and signs in the owner who repeats it', async () => {
    const user = await createUser(t);
    const taken = await t.call(authRoutes.signupBuyer, {
      body: { email: user.email, password: 'other-secret-55' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'email_taken', error: authMessages.emailTaken });
    const again = await t.call(authRoutes.signupBuyer, {
      body: { email: user.email.toUpperCase(), password: DEFAULT_PASSWORD },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(user.id);
  });

  it('creates one account when the same sign-up arrives twice at once', async () => {
    const email = 'race@example.com';
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        t.call(authRoutes.signupBuyer, { body: { email, password: 'market-maker-77' } }),
      ),
    );
    const ids = new Set(results.filter((r) => r.statusCode === 201).map((r) => r.json().id));
    expect(ids.size).toBe(1);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
  });
});

describe('login', () => {
  it('returns the session fields and a working access token', async () => {
    const user = await createUser(t);
    const { res, body } = await login(user.email);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        'accessTokenValidity',
        'email',
        'emailVerified',
        'id',
        'refreshToken',
        'refreshTokenValidity',
        'token',
        // No second step for this account (two-factor is off: issue 33, ADR 054).
        'twoFactorRequired',
        'verificationDaysRemaining',
      ].sort(),
    );
    expect(body).toMatchObject({
      id: user.id,
      emailVerified: true,
      verificationDaysRemaining: 0,
      twoFactorRequired: false,
    });
    expect((await t.call(usersRoutes.getProfile, { token: body.token })).statusCode).toBe(200);
  });

  it('counts down the verification window for unverified accounts', async () => {
    const user = await createUser(t, {
      verified: false,
      createdAt: new Date(Date.now() - 6.5 * 86_400_000),
    });
    expect((await login(user.email)).body).toMatchObject({
      emailVerified: false,
      verificationDaysRemaining: 1,
    });
    const expired = await createUser(t, {
      verified: false,
      createdAt: new Date(Date.now() - 30 * 86_400_000),
    });
    expect((await login(expired.email)).body.verificationDaysRemaining).toBe(0);
  });

  it('answers unknown e-mails and wrong passwords identically', async () => {
    const user = await createUser(t);
    const wrong = await t.call(authRoutes.login, {
      body: { email: user.email, password: 'not-the-password' },
    });
    const unknown = await t.call(authRoutes.login, {
      body: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({
      error: authMessages.invalidCredentials,
      code: 'invalid_credentials',
    });
  });

  it('rate-limits per IP and per account and address with Retry-After (lockout.test.ts)', async () => {
    const user = await createUser(t);
    const from = '203.0.113.8';
    let last;
    for (let i = 0; i < 11; i++) {
      last = await t.call(authRoutes.login, {
        ip: from,
        body: { email: user.email, password: 'wrong-password' },
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json().code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);

    const ip = '203.0.113.9';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.call(authRoutes.login, {
        ip,
        body: { email: `ip${i}@example.com`, password: 'wrong-password' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('refresh tokens', () => {
  const refresh = (userId: string, token: string, bearer: string | null = token) =>
    t.call(authRoutes.refreshToken, {
      body: { user_id: userId, refresh_token: token },
      token: bearer,
    });

  it('rotates: the new pair works, validities are in minutes', async () => {
    const user = await createUser(t);
    const { body } = await login(user.email);
    const res = await refresh(user.id, body.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next).toMatchObject({ access_token_validity: 15, refresh_token_validity: 43_200 });
    expect(next.refresh_token).not.toBe(body.refreshToken);
    expect(
      (await t.call(usersRoutes.getProfile, { token: next.authentication_token })).statusCode,
    ).toBe(200);
    expect((await refresh(user.id, next.refresh_token)).statusCode).toBe(200);
  });

  it('detects reuse and revokes the whole family', async () => {
    const user = await createUser(t);
    const { body } = await login(user.email);
    const first = (await refresh(user.id, body.refreshToken)).json();
    const reuse = await refresh(user.id, body.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('token_reused');
    // The thief's copy is dead, and so is the legitimate successor.
    const successor = await refresh(user.id, first.refresh_token);
    expect(successor.statusCode).toBe(401);
    const live = await t.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, user.id));
    expect(live.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('lets exactly one of two concurrent refreshes win', async () => {
    const user = await createUser(t);
    const { body } = await login(user.email);
    const results = await Promise.all([
      refresh(user.id, body.refreshToken),
      refresh(user.id, body.refreshToken),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('requires the bearer to match, the user to own the token, and refuses garbage', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { body } = await login(user.email);
    expect((await refresh(user.id, body.refreshToken, null)).statusCode).toBe(401);
    expect((await refresh(user.id, body.refreshToken, 'something-else')).statusCode).toBe(401);
    expect((await refresh(other.id, body.refreshToken)).statusCode).toBe(401);
    expect((await refresh(user.id, 'not-a-token')).json().code).toBe('invalid_token');
    // None of those consumed it.
    expect((await refresh(user.id, body.refreshToken)).statusCode).toBe(200);
  });

  it('logout revokes the session family', async () => {
    const user = await createUser(t);
    const { body } = await login(user.email);
    const out = await t.call(authRoutes.logout, { body: { refresh_token: body.refreshToken } });
    expect(out.statusCode).toBe(200);
    expect((await refresh(user.id, body.refreshToken)).statusCode).toBe(401);
  });
});

describe('forgot password', () => {
  /** Asks for a code and waits for the job that mails it (the answer comes first, ADR 021). */
  const send = async (email: string, ip?: string) => {
    const res = await t.call(authRoutes.sendForgotPasswordEmail, {
      body: { email },
      ...(ip ? { ip } : {}),
    });
    await t.jobs.settle();
    return res;
  };
  const check = (email: string, code: string) =>
    t.call(authRoutes.checkForgotPasswordCode, { body: { email, code } });
  const reset = (email: string, code: string, password = 'brand-new-pass-1') =>
    t.call(authRoutes.resetForgotPassword, { body: { email, code, password } });

  it('answers the same for known and unknown e-mails', async () => {
    const user = await createUser(t);
    const known = await send(user.email);
    const unknown = await send('ghost@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(t.smtp.codeFor('ghost@example.com')).toBeNull();
    expect(t.smtp.codeFor(user.email)).toMatch(/^\d{6}$/);
  });

  it('checks, resets with a single-use code and revokes every refresh token', async () => {
    const user = await createUser(t);
    const session = (await login(user.email)).body;
    await send(user.email);
    const code = t.smtp.codeFor(user.email)!;
    expect((await check(user.email, code)).json()).toEqual({ message: authMessages.codeValid });
    expect((await reset(user.email, code)).json()).toEqual({ message: authMessages.passwordReset });
    const again = await reset(user.email, code, 'another-pass-22');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_code');
    expect((await login(user.email)).res.statusCode).toBe(401);
    expect((await login(user.email, 'brand-new-pass-1')).res.statusCode).toBe(200);
    const old = await t.call(authRoutes.refreshToken, {
      body: { user_id: user.id, refresh_token: session.refreshToken },
      token: session.refreshToken,
    });
    expect(old.statusCode).toBe(401);
  });

  it('kills a code after five wrong attempts', async () => {
    const user = await createUser(t);
    await send(user.email);
    const code = t.smtp.codeFor(user.email)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await check(user.email, wrong)).statusCode).toBe(400);
    const right = await check(user.email, code);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({ code: 'invalid_code', error: authMessages.invalidCode });
  });

  it('a new code comes with five fresh attempts', async () => {
    const user = await createUser(t);
    await send(user.email);
    const first = t.smtp.codeFor(user.email)!;
    const wrong = first === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await check(user.email, wrong)).statusCode).toBe(400);
    await send(user.email);
    const second = t.smtp.codeFor(user.email)!;
    if (second === wrong) return; // one in a million: the new code is the wrong guess
    expect((await check(user.email, second)).statusCode).toBe(200);
  });

  it('expires codes after 15 minutes', async () => {
    const user = await createUser(t);
    await send(user.email);
    const code = t.smtp.codeFor(user.email)!;
    await t.database.db
      .update(emailCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailCodes.userId, user.id));
    expect((await check(user.email, code)).statusCode).toBe(400);
  });

  it('stores codes as expiring hashes only', async () => {
    const user = await createUser(t);
    await send(user.email);
    const code = t.smtp.codeFor(user.email)!;
    const [row] = await t.database.db
      .select()
      .from(emailCodes)
      .where(eq(emailCodes.userId, user.id));
    expect(row!.codeHash).not.toContain(code);
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
  });

  it('a new code replaces the previous one', async () => {
    const user = await createUser(t);
    await send(user.email);
    const first = t.smtp.codeFor(user.email)!;
    await send(user.email);
    const second = t.smtp.codeFor(user.email)!;
    if (first !== second) expect((await check(user.email, first)).statusCode).toBe(400);
    expect((await check(user.email, second)).statusCode).toBe(200);
  });

  it('rate-limits sends per e-mail, known or not, with Retry-After', async () => {
    for (const email of ['limited@example.com', 'ghost-limited@example.com']) {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send(email)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    const res = await send('limited@example.com');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('validates the code format', async () => {
    const res = await check('x@example.com', '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.code).toBe('Enter the 6-digit code from the e-mail.');
  });
});

describe('change password', () => {
  it('requires a bearer token', async () => {
    const res = await t.call(authRoutes.changePassword, {
      body: { currentPassword: 'x', newPassword: 'brand-new-pass-1' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('checks the current password, then revokes old sessions and returns a new pair', async () => {
    const user = await createUser(t);
    const a = (await login(user.email)).body;
    const bad = await t.call(authRoutes.changePassword, {
      token: a.token,
      body: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass-1' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields.currentPassword).toBe(authMessages.wrongCurrentPassword);

    const ok = await t.call(authRoutes.changePassword, {
      token: a.token,
      body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'brand-new-pass-1' },
    });
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body).toMatchObject({
      message: authMessages.passwordChanged,
      accessTokenValidity: 900,
      refreshTokenValidity: 43_200,
    });
    const oldRefresh = await t.call(authRoutes.refreshToken, {
      body: { user_id: user.id, refresh_token: a.refreshToken },
      token: a.refreshToken,
    });
    expect(oldRefresh.statusCode).toBe(401);
    const newRefresh = await t.call(authRoutes.refreshToken, {
      body: { user_id: user.id, refresh_token: body.refreshToken },
      token: body.refreshToken,
    });
    expect(newRefresh.statusCode).toBe(200);
    expect((await login(user.email, 'brand-new-pass-1')).res.statusCode).toBe(200);
  });

  it('enforces the password rules on the new password', async () => {
    const user = await createUser(t);
    const a = (await login(user.email)).body;
    const res = await t.call(authRoutes.changePassword, {
      token: a.token,
      body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'qwerty123' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.newPassword).toEqual(expect.any(String));
  });
});

describe('account activation', () => {
  it('activates with the mailed code; the code is single-use', async () => {
    const email = 'activate-me@example.com';
    const signup = await t.call(authRoutes.signupBuyer, {
      body: { email, password: 'market-maker-77' },
    });
    expect(signup.statusCode).toBe(201);
    await t.jobs.settle();
    const code = t.smtp.codeFor(email)!;
    const res = await t.call(authRoutes.verifyAccountCode, { body: { email, code } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: authMessages.accountVerified, emailVerified: true });
    expect((await login(email, 'market-maker-77')).body).toMatchObject({
      emailVerified: true,
      verificationDaysRemaining: 0,
    });
    expect((await t.call(authRoutes.verifyAccountCode, { body: { email, code } })).statusCode).toBe(
      400,
    );
  });

  it('resends for unverified accounts and answers the same for anyone else', async () => {
    const unverified = await createUser(t, { verified: false });
    const verified = await createUser(t);
    const answers = await Promise.all(
      [unverified.email, verified.email, 'ghost-activation@example.com'].map((email) =>
        t.call(authRoutes.sendAccountVerificationEmail, { body: { email } }),
      ),
    );
    await t.jobs.settle();
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.json()).toEqual({ message: authMessages.activationSent });
    }
    expect(t.smtp.codeFor(unverified.email)).toMatch(/^\d{6}$/);
    expect(t.smtp.codeFor(verified.email)).toBeNull();
  });

  it('uses a code once when two requests bring it at the same time', async () => {
    const user = await createUser(t, { verified: false });
    await t.call(authRoutes.sendAccountVerificationEmail, { body: { email: user.email } });
    await t.jobs.settle();
    const code = t.smtp.codeFor(user.email)!;
    const answers = await Promise.all(
      [1, 2].map(() => t.call(authRoutes.verifyAccountCode, { body: { email: user.email, code } })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('answers wrong codes and unknown e-mails identically', async () => {
    const user = await createUser(t, { verified: false });
    await t.call(authRoutes.sendAccountVerificationEmail, { body: { email: user.email } });
    await t.jobs.settle();
    const code = t.smtp.codeFor(user.email)!;
    const wrong = code === '999999' ? '888888' : '999999';
    const a = await t.call(authRoutes.verifyAccountCode, {
      body: { email: user.email, code: wrong },
    });
    const b = await t.call(authRoutes.verifyAccountCode, {
      body: { email: 'nobody-here@example.com', code: wrong },
    });
    expect(a.statusCode).toBe(400);
    expect(a.json()).toEqual(b.json());
  });

  it('rate-limits activation sends per e-mail', async () => {
    const user = await createUser(t, { verified: false });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await t.call(authRoutes.sendAccountVerificationEmail, { body: { email: user.email } }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
