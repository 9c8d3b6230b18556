import {
  accountDataRoutes,
  authRoutes,
  passkeyMessages,
  passkeyRoutes,
  usersRoutes,
  type LoginResponse,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
  type PasskeySummary,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolTwoFactor } from '../../../test/factories/two-factor.ts';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { nextIp, startTestApp, type TestApp } from '../../../test/harness.ts';
import { mailText } from '../../../test/smtp.ts';
import { SoftAuthenticator } from '../../../test/webauthn.ts';

/** Issue 33, ADR 054: passkeys through HTTP, with real WebAuthn answers from a software authenticator. */

const ORIGIN = 'https://shop.test';
let t: TestApp;
beforeAll(async () => {
  // The relying party comes from configuration: this origin, and its host as the RP id.
  t = await startTestApp({ PASSKEY_ORIGIN: ORIGIN });
});
afterAll(async () => {
  await t?.close();
});

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}, ip = nextIp()) {
  const user = await createUser(t, overrides);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
    ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { user, token: res.json().token as string };
}

async function registrationOptions(token: string, proof: object = { password: DEFAULT_PASSWORD }) {
  const res = await t.call(passkeyRoutes.passkeyRegistrationOptions, { token, body: proof });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as PasskeyCreationOptions;
}

/** Adds a passkey the way the account page does: options, the authenticator, the answer. */
async function addPasskey(token: string, authenticator: SoftAuthenticator, name = 'Laptop') {
  const options = await registrationOptions(token);
  const res = await t.call(passkeyRoutes.passkeyAdd, {
    token,
    body: { name, credential: authenticator.create(options) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().passkey as PasskeySummary;
}

async function signInOptions(ip = nextIp()) {
  const res = await t.call(passkeyRoutes.passkeyLoginOptions, { ip });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as PasskeyRequestOptions;
}

const passkeyLogin = (credential: unknown, headers: Record<string, string> = {}) =>
  t.call(passkeyRoutes.passkeyLogin, { body: { credential }, headers });

const listOf = async (token: string) => {
  const res = await t.call(passkeyRoutes.passkeys, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().passkeys as PasskeySummary[];
};

const mailsTo = (to: string, subject: RegExp) =>
  t.smtp.inbox.filter((m) => m.to.includes(to) && subject.test(m.subject));

const profileStatus = async (token: string) =>
  (await t.call(usersRoutes.getProfile, { token })).statusCode;

describe('adding a passkey', () => {
  it('asks for the password first; registers, lists and mails the owner', async () => {
    const { user, token } = await signedIn();
    const wrong = await t.call(passkeyRoutes.passkeyRegistrationOptions, {
      token,
      body: { password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields.password).toBeTruthy();

    const options = await registrationOptions(token);
    expect(options.rp).toEqual({ name: 'Tradeshelf', id: 'shop.test' });
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    // The user handle is 32 random bytes: neither the account's id nor its e-mail.
    const handle = Buffer.from(options.user.id, 'base64url');
    expect(handle).toHaveLength(32);
    expect(handle.toString('latin1')).not.toContain(user.id);
    expect(handle.toString('latin1')).not.toContain(user.email);
    expect(options.user.id).not.toContain(Buffer.from(user.id).toString('base64url'));

    const authenticator = new SoftAuthenticator(ORIGIN, true);
    const added = await t.call(passkeyRoutes.passkeyAdd, {
      token,
      body: { name: '  Work laptop ', credential: authenticator.create(options) },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      message: passkeyMessages.added,
      passkey: { name: 'Work laptop', lastUsedAt: null, synced: true },
    });
    expect(await listOf(token)).toEqual([added.json().passkey]);

    // The same authenticator is not offered twice, and the handle stays the account's.
    const again = await registrationOptions(token);
    expect(again.excludeCredentials.map((c) => c.id)).toEqual([authenticator.credentials[0]!.id]);
    expect(again.user.id).toBe(options.user.id);

    await t.jobs.settle();
    const mails = mailsTo(user.email, /passkey was added/);
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0]!.raw)).toContain('Work laptop');
    expect(mailText(mails[0]!.raw)).toMatch(/If it was not you/);
  });

  it('with two-factor on, also asks for a current code', async () => {
    const { token } = await signedIn();
    const enrolled = await enrolTwoFactor(t, token);
    const noCode = await t.call(passkeyRoutes.passkeyRegistrationOptions, {
      token,
      body: { password: DEFAULT_PASSWORD },
    });
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().fields.twoFactorCode).toBeTruthy();
    await registrationOptions(token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: enrolled.nextCode(),
    });
  });

  it('refuses an answer for another origin, an unverified person, a replay and another account’s challenge', async () => {
    const { token } = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const add = (credential: unknown, as = token) =>
      t.call(passkeyRoutes.passkeyAdd, { token: as, body: { name: 'Key', credential } });

    const phished = await add(
      authenticator.create(await registrationOptions(token), { origin: 'https://shop.test.evil' }),
    );
    expect(phished.statusCode).toBe(400);
    expect(phished.json().error).toBe(passkeyMessages.notAdded);

    const unverified = await add(
      authenticator.create(await registrationOptions(token), { verified: false }),
    );
    expect(unverified.statusCode).toBe(400);

    const good = authenticator.create(await registrationOptions(token));
    expect((await add(good)).statusCode).toBe(201);
    const replayed = await add(good);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe(passkeyMessages.expired);

    // A challenge made for one account does not register a passkey on another.
    const other = await signedIn();
    const stolen = await add(authenticator.create(await registrationOptions(token)), other.token);
    expect(stolen.statusCode).toBe(401);
    expect(await listOf(other.token)).toEqual([]);
    expect(await listOf(token)).toHaveLength(1);
  });

  it('refuses a challenge past its 3 minutes', async () => {
    const { token } = await signedIn();
    const options = await registrationOptions(token);
    await t.database.db.execute(
      sql`update passkey_challenges set expires_at = now() - interval '1 second'`,
    );
    const res = await t.call(passkeyRoutes.passkeyAdd, {
      token,
      body: { name: 'Late', credential: new SoftAuthenticator(ORIGIN).create(options) },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(passkeyMessages.expired);
  });
});

describe('signing in with a passkey, no password', () => {
  it('opens the session a password login opens, and mails about a new device the same way', async () => {
    // Both password sign-ins come from one address: the device is its name and /24 network, and
    // addresses drawn apart could fall in two networks (one more mail) depending on the file order.
    const ip = nextIp();
    const { user, token } = await signedIn({}, ip);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await addPasskey(token, authenticator);

    // The start names no account: everyone gets the same kind of options.
    const options = await signInOptions();
    expect(options).toMatchObject({
      rpId: 'shop.test',
      userVerification: 'required',
      allowCredentials: [],
    });
    const res = await passkeyLogin(authenticator.get(options), { 'user-agent': CHROME });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json() as LoginResponse;
    const password = await t.call(authRoutes.login, {
      body: { email: user.email, password: user.password },
      ip,
    });
    // The answer is a password login's, field for field (the web applies it the same way).
    expect(Object.keys(session).sort()).toEqual(
      Object.keys(password.json())
        .filter((k) => k !== 'twoFactorRequired')
        .sort(),
    );
    expect(session).toMatchObject({ id: user.id, email: user.email, emailVerified: true });
    expect(await profileStatus(session.token)).toBe(200);
    const refreshed = await t.call(authRoutes.refreshToken, {
      token: session.refreshToken,
      body: { user_id: user.id, refresh_token: session.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);

    const [listed] = await listOf(token);
    expect(listed!.id).toBe(added.id);
    expect(listed!.lastUsedAt).not.toBeNull();
    await t.jobs.settle();
    expect(mailsTo(user.email, /New sign-in/)).toHaveLength(1);
    expect(mailText(mailsTo(user.email, /New sign-in/)[0]!.raw)).toContain('Chrome on Windows');
  });

  it('answers an unverified account with its grace days, as a password login does', async () => {
    const { token } = await signedIn({ verified: false });
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(token, authenticator);
    const res = await passkeyLogin(authenticator.get(await signInOptions()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ emailVerified: false, verificationDaysRemaining: 7 });
  });

  it('refuses a replayed answer, another origin and a counter that went back', async () => {
    const { token } = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(token, authenticator);

    const first = authenticator.get(await signInOptions());
    expect((await passkeyLogin(first)).statusCode).toBe(200);
    const replay = await passkeyLogin(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe(passkeyMessages.expired);

    const phished = await passkeyLogin(
      authenticator.get(await signInOptions(), { origin: 'https://shop.test.evil' }),
    );
    expect(phished.statusCode).toBe(401);
    expect(phished.json()).toMatchObject({
      code: 'invalid_credentials',
      error: passkeyMessages.notAccepted,
    });

    const unverified = await passkeyLogin(
      authenticator.get(await signInOptions(), { verified: false }),
    );
    expect(unverified.statusCode).toBe(401);

    // The authenticator says 10, then 5: a cloned key, or a recorded answer.
    expect(
      (await passkeyLogin(authenticator.get(await signInOptions(), { counter: 10 }))).statusCode,
    ).toBe(200);
    const cloned = await passkeyLogin(authenticator.get(await signInOptions(), { counter: 5 }));
    expect(cloned.statusCode).toBe(401);
    const same = await passkeyLogin(authenticator.get(await signInOptions(), { counter: 10 }));
    expect(same.statusCode).toBe(401);
    expect((await passkeyLogin(authenticator.get(await signInOptions()))).statusCode).toBe(200);
  });

  it('refuses an unknown passkey, and one that names another account’s handle', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const authA = new SoftAuthenticator(ORIGIN);
    const authB = new SoftAuthenticator(ORIGIN);
    await addPasskey(a.token, authA);
    await addPasskey(b.token, authB);

    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({
      ...(await registrationOptions(a.token)),
      user: { id: 'x', name: 'x', displayName: 'x' },
    });
    expect((await passkeyLogin(stranger.get(await signInOptions()))).statusCode).toBe(401);

    // B's key presenting A's handle: the signature is B's own, the account claimed is not.
    const swapped = authB.get(await signInOptions());
    swapped.response.userHandle = authA.credentials[0]!.userHandle;
    expect((await passkeyLogin(swapped)).statusCode).toBe(401);
  });

  it('costs a login attempt of the address, as a password does', async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) await signInOptions(ip);
    const res = await t.call(passkeyRoutes.passkeyLoginOptions, { ip });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeTruthy();
    const password = await t.call(authRoutes.login, {
      ip,
      body: { email: 'someone@example.com', password: 'whatever-it-is' },
    });
    expect(password.statusCode).toBe(429);
  });
});

describe('a passkey as the second step', () => {
  async function ticket(email: string) {
    const res = await t.call(authRoutes.login, {
      ip: nextIp(),
      body: { email, password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { twoFactorRequired: true; challenge: string; passkeys: boolean };
  }
  async function secondStepOptions(challenge: string) {
    const res = await t.call(passkeyRoutes.passkeySecondStepOptions, { body: { challenge } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().options as PasskeyRequestOptions;
  }
  const secondStep = (challenge: string, credential: unknown) =>
    t.call(passkeyRoutes.passkeySecondStep, { body: { challenge, credential } });

  it('stands in for the code: the login says a passkey may, and it opens the session', async () => {
    const { user, token } = await signedIn();
    const enrolled = await enrolTwoFactor(t, token);
    const before = await ticket(user.email);
    expect(before.passkeys).toBe(false);
    const noneYet = await t.call(passkeyRoutes.passkeySecondStepOptions, {
      body: { challenge: before.challenge },
    });
    expect(noneYet.statusCode).toBe(422);

    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await registrationOptions(token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: enrolled.nextCode(),
    });
    const add = await t.call(passkeyRoutes.passkeyAdd, {
      token,
      body: { name: 'Phone', credential: authenticator.create(options) },
    });
    expect(add.statusCode).toBe(201);

    const login = await ticket(user.email);
    expect(login.passkeys).toBe(true);
    const stepOptions = await secondStepOptions(login.challenge);
    expect(stepOptions.allowCredentials.map((c) => c.id)).toEqual([
      authenticator.credentials[0]!.id,
    ]);
    const res = await secondStep(login.challenge, authenticator.get(stepOptions));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email });
    expect(await profileStatus(res.json().token)).toBe(200);

    // A forged or expired ticket gets nothing.
    const forged = await t.call(passkeyRoutes.passkeySecondStepOptions, {
      body: { challenge: `${login.challenge}x` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('refuses another account’s passkey and counts it as a wrong code', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const enrolledA = await enrolTwoFactor(t, a.token);
    const authA = new SoftAuthenticator(ORIGIN);
    const authB = new SoftAuthenticator(ORIGIN);
    const optionsA = await registrationOptions(a.token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: enrolledA.nextCode(),
    });
    await t.call(passkeyRoutes.passkeyAdd, {
      token: a.token,
      body: { name: 'A', credential: authA.create(optionsA) },
    });
    await addPasskey(b.token, authB);

    const login = await ticket(a.user.email);
    // B's passkey answering A's challenge: a valid signature, of the wrong account. Named by
    // allowCredentials, an authenticator may leave the user handle out, so that is not the guard.
    const foreign = authB.get(await secondStepOptions(login.challenge), {
      credential: authB.credentials[0]!,
    });
    delete foreign.response.userHandle;
    const res = await secondStep(login.challenge, foreign);
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('token');
    const counted = await t.deps.limiter.peek(
      { name: '2fa:user', limit: 10, windowSeconds: 900 },
      a.user.id,
    );
    expect(counted.count).toBe(1);
    // A's own passkey still works, and clears the count.
    const ok = await secondStep(
      login.challenge,
      authA.get(await secondStepOptions(login.challenge)),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('renaming and removing', () => {
  it('renames one’s own passkey; another account’s id answers 404 and changes nothing', async () => {
    const mine = await signedIn();
    const theirs = await signedIn();
    const key = await addPasskey(theirs.token, new SoftAuthenticator(ORIGIN), 'Theirs');

    const stranger = await t.call(passkeyRoutes.passkeyRename, {
      token: mine.token,
      params: { id: key.id },
      body: { name: 'Mine now' },
    });
    expect(stranger.statusCode).toBe(404);
    const remove = await t.call(passkeyRoutes.passkeyRemove, {
      token: mine.token,
      params: { id: key.id },
      body: { password: DEFAULT_PASSWORD },
    });
    expect(remove.statusCode).toBe(404);
    expect((await listOf(theirs.token))[0]!.name).toBe('Theirs');

    const renamed = await t.call(passkeyRoutes.passkeyRename, {
      token: theirs.token,
      params: { id: key.id },
      body: { name: 'Desk' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().passkey.name).toBe('Desk');
    const blank = await t.call(passkeyRoutes.passkeyRename, {
      token: theirs.token,
      params: { id: key.id },
      body: { name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
  });

  it('asks for the password, mails the owner, and the passkey signs in no more', async () => {
    const { user, token } = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const key = await addPasskey(token, authenticator, 'Old phone');

    const wrong = await t.call(passkeyRoutes.passkeyRemove, {
      token,
      params: { id: key.id },
      body: { password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(await listOf(token)).toHaveLength(1);

    const res = await t.call(passkeyRoutes.passkeyRemove, {
      token,
      params: { id: key.id },
      body: { password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await listOf(token)).toEqual([]);
    expect((await passkeyLogin(authenticator.get(await signInOptions()))).statusCode).toBe(401);
    await t.jobs.settle();
    expect(mailText(mailsTo(user.email, /passkey was removed/)[0]!.raw)).toContain('Old phone');
  });

  it('are in the account export without their keys, and go with the account', async () => {
    const { user, token } = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(token, authenticator, 'Tablet');
    const exported = await t.call(accountDataRoutes.accountExport, {
      token,
      body: { password: DEFAULT_PASSWORD },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().security.passkeys).toEqual([
      expect.objectContaining({ name: 'Tablet', synced: false }),
    ]);
    expect(exported.body).not.toContain(authenticator.credentials[0]!.id);

    const deleted = await t.call(accountDataRoutes.accountDelete, {
      token,
      body: { password: DEFAULT_PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await t.database.db.execute(
      sql`select 1 from passkeys where user_id = ${user.id}
          union all select 1 from passkey_handles where user_id = ${user.id}`,
    );
    expect(left.rows).toHaveLength(0);
    expect((await passkeyLogin(authenticator.get(await signInOptions()))).statusCode).toBe(401);
  });
});
