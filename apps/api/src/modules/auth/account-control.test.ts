import {
  accountDataRoutes,
  accountMessages,
  accountRoutes,
  authRoutes,
  usersRoutes,
  type AccountSession,
  type LoginResponse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { enrolTwoFactor } from '../../../test/factories/two-factor.ts';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { nextIp, useTestApp } from '../../../test/harness.ts';
import { profileStatus, refreshSession } from '../../../test/sessions.ts';
import { mailText } from '../../../test/smtp.ts';
import { buildApp } from '../../app.ts';
import { createDeps } from '../../deps.ts';

/** Issue 33, ADR 058: sign-ins, account notices, e-mail change and recovery codes through HTTP. */

const t = useTestApp();

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A device: a browser at an address. Addresses in one /24 are one place. */
interface Device {
  ua: string;
  ip: string;
}
let net = 0;
/** A device in a network of its own (TEST-NET-style 100.64.x.0/24 blocks). */
const newDevice = (ua = CHROME_WINDOWS): Device => ({ ua, ip: `100.64.${++net}.7` });

async function login(email: string, device: Device, password = DEFAULT_PASSWORD) {
  const res = await t.call(authRoutes.login, {
    body: { email, password },
    ip: device.ip,
    headers: { 'user-agent': device.ua },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LoginResponse;
}
const sessionsOf = async (token: string) => {
  const res = await t.call(accountRoutes.accountSessions, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions as AccountSession[];
};
const mailsTo = (to: string, subject?: RegExp) =>
  t.smtp.inbox.filter((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('devices: the account’s active sign-ins', () => {
  it('lists only the caller’s own sign-ins, named, masked and dated, with this one marked', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const laptop = await login(user.email, { ua: CHROME_WINDOWS, ip: '203.0.113.57' });
    const phone = await login(user.email, { ua: SAFARI_IPHONE, ip: '198.51.100.4' });
    await login(other.email, newDevice());

    const list = await sessionsOf(laptop.token);
    expect(list).toHaveLength(2);
    const byDevice = Object.fromEntries(list.map((s) => [s.device, s]));
    // Documentation addresses are in no country: no place is made up for them.
    expect(byDevice['Chrome on Windows']).toMatchObject({
      address: '203.0.113.x',
      place: null,
      current: true,
    });
    expect(byDevice['Safari on iPhone']).toMatchObject({
      address: '198.51.100.x',
      current: false,
    });
    expect(list.map((s) => s.current).filter(Boolean)).toHaveLength(1);
    // Newest first; the phone's list marks the phone.
    expect(list[0]!.device).toBe('Safari on iPhone');
    expect((await sessionsOf(phone.token)).find((s) => s.current)?.device).toBe('Safari on iPhone');

    // A refresh moves "last seen" (and where from) without starting a new sign-in.
    const before = byDevice['Safari on iPhone']!;
    const rotated = await t.call(authRoutes.refreshToken, {
      body: { user_id: user.id, refresh_token: phone.refreshToken },
      token: phone.refreshToken,
      ip: '192.0.2.200',
      headers: { 'user-agent': SAFARI_IPHONE },
    });
    expect(rotated.statusCode).toBe(200);
    const after = (await sessionsOf(laptop.token)).find((s) => s.id === before.id)!;
    expect(after.address).toBe('192.0.2.x');
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(before.lastSeenAt));
    expect(await sessionsOf(laptop.token)).toHaveLength(2);
  });

  it('names where each sign-in was from the IP database, in the list, the export and the new-device mail', async () => {
    const user = await createUser(t);
    // Google's resolver and heise.de: the IP database (DB-IP) places them in these countries.
    const here = await login(user.email, { ua: CHROME_WINDOWS, ip: '8.8.8.8' });
    await login(user.email, { ua: SAFARI_IPHONE, ip: '::ffff:193.99.144.80' });
    await login(user.email, { ua: SAFARI_IPHONE, ip: '10.20.30.40' });
    const list = await sessionsOf(here.token);
    expect(list.map((s) => [s.address, s.place])).toEqual([
      ['10.20.30.x', null],
      ['193.99.144.x', 'Germany'],
      ['8.8.8.x', 'United States'],
    ]);
    // The full address is not kept: only its masked form and the place.
    const stored = await t.database.db.execute<{ address: string; place: string | null }>(
      sql`select address, place from refresh_tokens where user_id = ${user.id} order by created_at`,
    );
    expect(stored.rows.map((r) => r.address).join()).not.toMatch(/8\.8\.8\.8|193\.99\.144\.80/);
    await t.jobs.settle();
    const mails = mailsTo(user.email, /New sign-in/);
    expect(mails.map((m) => mailText(m.raw).match(/Address: .*/)?.[0])).toContain(
      'Address: 193.99.144.x (Germany)',
    );
    const data = await t.call(accountDataRoutes.accountExport, {
      token: here.token,
      body: { password: DEFAULT_PASSWORD },
    });
    expect(data.statusCode, data.body).toBe(200);
    expect(
      (data.json().security.signIns as Array<{ place: string | null }>).map((s) => s.place).sort(),
    ).toEqual(['Germany', 'United States', null].sort());
  });

  it('logging one out ends its refresh token and its access tokens, here and on other nodes', async () => {
    const user = await createUser(t);
    const mine = await login(user.email, newDevice());
    const theirs = await login(user.email, newDevice(SAFARI_IPHONE));
    const vendor = (await t.call(usersRoutes.addVendorRole, { token: theirs.token })).json();
    // A second node that re-reads denials on every check (its interval set to 0).
    const deps = createDeps(t.config, t.database, quiet, { denialSyncMs: 0 });
    const nodeB = await buildApp(deps);
    try {
      expect(await profileStatus(t, theirs.token, nodeB)).toBe(200);
      const target = (await sessionsOf(mine.token)).find((s) => !s.current)!;
      const ended = await t.call(accountRoutes.accountSessionEnd, {
        token: mine.token,
        params: { id: target.id },
      });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json().message).toBe(accountMessages.sessionEnded);

      expect(await profileStatus(t, theirs.token)).toBe(401);
      expect(await profileStatus(t, theirs.token, nodeB)).toBe(401);
      expect(await t.deps.tokens.verify(vendor.token as string, ['tradeshelf:vendor'])).toBeNull();
      const refused = await refreshSession(t, user.id, theirs.refreshToken);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('invalid_token');

      expect(await profileStatus(t, mine.token)).toBe(200);
      expect((await refreshSession(t, user.id, mine.refreshToken)).statusCode).toBe(200);
      expect((await sessionsOf(mine.token)).map((s) => s.id)).not.toContain(target.id);
      // Ended already: gone from the list, and 404 now.
      const again = await t.call(accountRoutes.accountSessionEnd, {
        token: mine.token,
        params: { id: target.id },
      });
      expect(again.statusCode).toBe(404);
    } finally {
      await nodeB.close();
      await deps.close();
    }
  });

  it('another user’s sign-in answers 404 and stays signed in', async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const mine = await login(user.email, newDevice());
    const theirs = await login(stranger.email, newDevice());
    const theirId = (await sessionsOf(theirs.token))[0]!.id;
    for (const id of [theirId, 'fam_does_not_exist']) {
      const res = await t.call(accountRoutes.accountSessionEnd, {
        token: mine.token,
        params: { id },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'not_found',
        error: accountMessages.sessionNotFound,
      });
    }
    expect(await profileStatus(t, theirs.token)).toBe(200);
    expect((await refreshSession(t, stranger.id, theirs.refreshToken)).statusCode).toBe(200);
    expect((await t.call(accountRoutes.accountSessions, { token: null })).statusCode).toBe(401);
  });

  it('“log out everywhere else” keeps this sign-in and ends the others', async () => {
    const user = await createUser(t);
    const here = await login(user.email, newDevice());
    const a = await login(user.email, newDevice(SAFARI_IPHONE));
    const b = await login(user.email, newDevice());
    const res = await t.call(accountRoutes.accountSessionsEndOthers, { token: here.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: accountMessages.othersEnded, ended: 2 });
    for (const s of [a, b]) {
      expect(await profileStatus(t, s.token)).toBe(401);
      expect((await refreshSession(t, user.id, s.refreshToken)).statusCode).toBe(401);
    }
    expect(await profileStatus(t, here.token)).toBe(200);
    const left = await sessionsOf(here.token);
    expect(left).toHaveLength(1);
    expect(left[0]!.current).toBe(true);
    expect((await refreshSession(t, user.id, here.refreshToken)).statusCode).toBe(200);
  });
});

describe('account notices', () => {
  it('a password change and a reset each mail the account, saying what to do if it was not them', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const changed = await t.call(authRoutes.changePassword, {
      token: s.token,
      body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'brand-new-pass-1' },
    });
    expect(changed.statusCode).toBe(200);
    await t.jobs.settle();
    const mails = mailsTo(user.email, /password was changed/);
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0]!.raw)).toMatch(/If it was not you/);
    expect(mailText(mails[0]!.raw)).toContain('/forgot-password');

    await t.call(authRoutes.sendForgotPasswordEmail, { body: { email: user.email } });
    await t.jobs.settle();
    const code = t.smtp.codeFor(user.email)!;
    const reset = await t.call(authRoutes.resetForgotPassword, {
      body: { email: user.email, code, password: 'another-pass-22' },
    });
    expect(reset.statusCode).toBe(200);
    await t.jobs.settle();
    expect(mailsTo(user.email, /password was changed/)).toHaveLength(2);
  });

  it('a sign-in from a new device mails once per device; known devices and the first sign-in mail nothing', async () => {
    const newSignIns = (email: string) => mailsTo(email, /New sign-in/);
    // Sign-up is the first sign-in: it records the device and mails nothing about it.
    const email = `fresh-${Date.now()}@example.com`;
    const home = newDevice();
    const signup = await t.call(authRoutes.signupBuyer, {
      body: { email, password: DEFAULT_PASSWORD },
      ip: home.ip,
      headers: { 'user-agent': home.ua },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    await login(email, home);
    // Same browser, another address in the same network: the same device.
    await login(email, { ua: home.ua, ip: home.ip.replace(/\.7$/, '.99') });
    await t.jobs.settle();
    expect(newSignIns(email)).toHaveLength(0);

    const travel = newDevice(SAFARI_IPHONE);
    await login(email, travel);
    await login(email, travel);
    await t.jobs.settle();
    const mails = newSignIns(email);
    expect(mails).toHaveLength(1);
    const text = mailText(mails[0]!.raw);
    expect(text).toContain('Device: Safari on iPhone');
    expect(text).toContain(`Address: ${travel.ip.replace(/\.7$/, '.x')}`);
    expect(text).toMatch(/If it was not you/);

    // Another browser at home is a device of its own.
    await login(email, { ua: SAFARI_IPHONE, ip: home.ip });
    await t.jobs.settle();
    expect(newSignIns(email)).toHaveLength(2);

    // An account with no sign-in history yet (made before devices were recorded) starts quietly.
    const older = await createUser(t);
    await login(older.email, newDevice());
    await t.jobs.settle();
    expect(newSignIns(older.email)).toHaveLength(0);
    await login(older.email, newDevice());
    await t.jobs.settle();
    expect(newSignIns(older.email)).toHaveLength(1);
  });

  it('two-factor on and off each mail the account', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const { nextCode } = await enrolTwoFactor(t, s.token);
    await t.jobs.settle();
    expect(mailsTo(user.email, /Two-factor authentication is on/)).toHaveLength(1);
    const off = await t.call(authRoutes.twoFactorDisable, {
      token: s.token,
      body: { code: nextCode() },
    });
    expect(off.statusCode, off.body).toBe(200);
    await t.jobs.settle();
    expect(mailsTo(user.email, /turned off/)).toHaveLength(1);
  });
});

describe('regenerating recovery codes', () => {
  it('needs a current code; the old set stops working, each new code works once, the owner is mailed', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const { recoveryCodes: old, nextCode } = await enrolTwoFactor(t, s.token);

    const wrong = await t.call(accountRoutes.twoFactorRecoveryCodes, {
      token: s.token,
      body: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const recovery = await t.call(accountRoutes.twoFactorRecoveryCodes, {
      token: s.token,
      body: { code: old[0]! },
    });
    expect(recovery.statusCode, 'a recovery code is not a current code').toBe(400);

    const res = await t.call(accountRoutes.twoFactorRecoveryCodes, {
      token: s.token,
      body: { code: nextCode() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toHaveLength(0);
    await t.jobs.settle();
    expect(mailsTo(user.email, /recovery codes were replaced/)).toHaveLength(1);

    const challenge = async () =>
      (
        await t.call(authRoutes.login, {
          ip: nextIp(),
          body: { email: user.email, password: user.password },
        })
      ).json().challenge as string;
    const second = async (code: string) =>
      t.call(authRoutes.loginTwoFactor, {
        ip: nextIp(),
        body: { challenge: await challenge(), code },
      });
    expect((await second(old[1]!)).statusCode).toBe(400);
    expect((await second(fresh[0]!)).statusCode).toBe(200);
    expect((await second(fresh[0]!)).statusCode).toBe(400);
    expect((await t.call(authRoutes.twoFactorStatus, { token: s.token })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
    });
  });
});

describe('changing the e-mail address', () => {
  const linkIn = (to: string) => {
    const mail = mailsTo(to, /Confirm your new/).at(-1);
    const m = /\/account\/email\/confirm\?token=([A-Za-z0-9_%-]+)/.exec(mailText(mail?.raw ?? ''));
    return m ? decodeURIComponent(m[1]!) : null;
  };
  const ask = (token: string, body: Record<string, string>) =>
    t.call(accountRoutes.accountEmailChange, { token, body });
  const confirm = (token: string) => t.call(accountRoutes.accountEmailConfirm, { body: { token } });

  it('mails a link to the new address and a notice to the old; only the link changes it, once', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const next = `moved-${Date.now()}@example.com`;
    const res = await ask(s.token, { email: next, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: accountMessages.emailChangeSent });
    await t.jobs.settle();
    expect(
      mailsTo(user.email, /change of your Tradeshelf e-mail address was requested/),
    ).toHaveLength(1);
    expect(mailText(mailsTo(user.email, /was requested/)[0]!.raw)).toContain(next);
    const link = linkIn(next);
    expect(link).toBeTruthy();

    // Nothing changes before the link is opened.
    const profile = async () =>
      (await t.call(usersRoutes.getProfile, { token: s.token })).json().user;
    expect((await profile()).email).toBe(user.email);
    const settings = (await t.call(accountRoutes.accountSettings, { token: s.token })).json();
    expect(settings.pendingEmail?.email).toBe(next);

    const done = await confirm(link!);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ message: accountMessages.emailConfirmed, email: next });
    expect((await profile()).email).toBe(next);
    await t.jobs.settle();
    expect(mailsTo(user.email, /address was changed/)).toHaveLength(1);

    // Single use.
    const again = await confirm(link!);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(accountMessages.emailLinkInvalid);
    // The new address signs in; the old one no longer does.
    await login(next, newDevice());
    const old = await t.call(authRoutes.login, {
      body: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
  });

  it('refuses an expired link, and a link superseded by a newer request', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const first = `first-${Date.now()}@example.com`;
    const second = `second-${Date.now()}@example.com`;
    await ask(s.token, { email: first, password: DEFAULT_PASSWORD });
    await t.jobs.settle();
    const firstLink = linkIn(first)!;
    await ask(s.token, { email: second, password: DEFAULT_PASSWORD });
    await t.jobs.settle();
    const secondLink = linkIn(second)!;
    expect((await confirm(firstLink)).statusCode).toBe(400);

    // 24 hours later (the row's clock moved back a day and a second).
    await t.database.db.execute(
      sql`update email_changes set expires_at = now() - interval '1 second', created_at = now() - interval '24 hours 1 second' where user_id = ${user.id}`,
    );
    const expired = await confirm(secondLink);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({
      code: 'invalid_code',
      error: accountMessages.emailLinkInvalid,
    });
    expect((await t.call(usersRoutes.getProfile, { token: s.token })).json().user.email).toBe(
      user.email,
    );
  });

  it('an address another account uses gets the same answer, a notice without a link, and no change', async () => {
    const user = await createUser(t);
    const owner = await createUser(t);
    const s = await login(user.email, newDevice());
    const free = `free-${Date.now()}@example.com`;
    const freeAnswer = await ask(s.token, { email: free, password: DEFAULT_PASSWORD });
    const takenAnswer = await ask(s.token, {
      email: owner.email.toUpperCase(),
      password: DEFAULT_PASSWORD,
    });
    expect(takenAnswer.statusCode).toBe(freeAnswer.statusCode);
    expect(takenAnswer.body).toBe(freeAnswer.body);
    const settings = (await t.call(accountRoutes.accountSettings, { token: s.token })).json();
    expect(settings.pendingEmail?.email).toBe(owner.email);
    await t.jobs.settle();
    const notice = mailsTo(owner.email, /tried to move a Tradeshelf account/);
    expect(notice).toHaveLength(1);
    expect(mailText(notice[0]!.raw)).not.toMatch(/token=/);
    expect(linkIn(owner.email)).toBeNull();
    // The requester's own address hears of both requests alike.
    expect(mailsTo(user.email, /was requested/)).toHaveLength(2);
    expect((await t.call(usersRoutes.getProfile, { token: s.token })).json().user.email).toBe(
      user.email,
    );
  });

  it('needs the password, and a current code when two-factor is on; bad input changes nothing', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const next = `guarded-${Date.now()}@example.com`;
    const wrong = await ask(s.token, { email: next, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toHaveProperty('password');
    const same = await ask(s.token, { email: user.email, password: DEFAULT_PASSWORD });
    expect(same.statusCode).toBe(422);
    expect(same.json().error).toBe(accountMessages.emailSame);
    const bad = await ask(s.token, { email: 'not-an-address', password: DEFAULT_PASSWORD });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('email');

    const { nextCode } = await enrolTwoFactor(t, s.token);
    const noCode = await ask(s.token, { email: next, password: DEFAULT_PASSWORD });
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().fields).toHaveProperty('twoFactorCode');
    const badCode = await ask(s.token, {
      email: next,
      password: DEFAULT_PASSWORD,
      twoFactorCode: '000000',
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().fields).toHaveProperty('twoFactorCode');
    await t.jobs.settle();
    expect(mailsTo(next)).toHaveLength(0);
    const ok = await ask(s.token, {
      email: next,
      password: DEFAULT_PASSWORD,
      twoFactorCode: nextCode(),
    });
    expect(ok.statusCode, ok.body).toBe(202);
  });

  it('a new password stops a change asked for with the old one', async () => {
    const user = await createUser(t);
    const s = await login(user.email, newDevice());
    const next = `stopped-${Date.now()}@example.com`;
    await ask(s.token, { email: next, password: DEFAULT_PASSWORD });
    await t.jobs.settle();
    const link = linkIn(next)!;
    await t.call(authRoutes.changePassword, {
      token: s.token,
      body: { currentPassword: DEFAULT_PASSWORD, newPassword: 'brand-new-pass-1' },
    });
    expect((await confirm(link)).statusCode).toBe(400);
  });
});
