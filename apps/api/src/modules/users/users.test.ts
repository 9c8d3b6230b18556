import { authRoutes, usernameMessages, usersMessages, usersRoutes } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';

const t = useTestApp();

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t, overrides);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  return { user, token: res.json().token as string };
}

// A valid 2×2 PNG (the pipeline decodes every upload whole).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000000970485973000003e8000003e801b57b526b0000001149444154789c63d0bdb2ff3f0833c018005e2c0afd529e399e0000000049454e44ae426082',
  'hex',
);

function multipart(file: Buffer, filename: string, contentType: string) {
  const boundary = '----tradeshelf' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (token: string | null, file: Buffer, filename = 'me.png', type = 'image/png') => {
  const body = multipart(file, filename, type);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/image-upload?category=avatar',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
};

describe('bearer required', () => {
  it('refuses every user call without a token, or with a tampered or vendor-scoped one', async () => {
    const { token } = await signedIn();
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const route of [
      usersRoutes.getProfile,
      usersRoutes.updateProfile,
      usersRoutes.addVendorRole,
    ]) {
      const none = await t.call(route, {
        body: route.method === 'PUT' ? { username: 'valid_name' } : undefined,
      });
      expect(none.statusCode).toBe(401);
      expect(none.json().code).toBe('unauthorized');
      const bad = await t.call(route, {
        token: tampered,
        body: route.method === 'PUT' ? { username: 'valid_name' } : undefined,
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('invalid_token');
    }
    expect((await upload(null, PNG)).statusCode).toBe(401);
  });
});

describe('profile', () => {
  it('returns the user with an empty username until one is set', async () => {
    const { user, token } = await signedIn();
    const res = await t.call(usersRoutes.getProfile, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: user.id,
        email: user.email,
        username: '',
        emailVerified: true,
        roles: ['buyer'],
        avatarUrl: null,
        avatar: null,
        createdAt: user.createdAt.toISOString(),
      },
    });
  });

  it('sets a username and enforces the §5 rules with their messages', async () => {
    const { token } = await signedIn();
    const cases: Array<[string, string]> = [
      ['abc', usernameMessages.length],
      ['a'.repeat(16), usernameMessages.length],
      ['ab__cd', usernameMessages.consecutiveUnderscores],
      ['bad-name', usernameMessages.invalid],
      ['spa ce1', usernameMessages.invalid],
    ];
    for (const [username, message] of cases) {
      const res = await t.call(usersRoutes.updateProfile, { token, body: { username } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        error: message,
        fields: { username: message },
      });
    }
    const ok = await t.call(usersRoutes.updateProfile, { token, body: { username: 'Trader_One' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.username).toBe('Trader_One');
    expect((await t.call(usersRoutes.getProfile, { token })).json().user.username).toBe(
      'Trader_One',
    );
  });

  // Probe of issue 26: usernames could pass for the platform's staff. Reserved names get their own
  // message; the §5 messages stay as they are, and come first.
  it('refuses reserved usernames with their own message, spelt any way, keeping the old name', async () => {
    const { token } = await signedIn({ username: 'before_1' });
    for (const username of [
      'Tradeshelf',
      'tradeshe1f_fan',
      'Support',
      'Support_Team',
      'ADM1N',
      'Staff',
      'official_staff',
      'S3curity',
    ]) {
      const res = await t.call(usersRoutes.updateProfile, { token, body: { username } });
      expect(res.statusCode, username).toBe(400);
      expect(res.json(), username).toMatchObject({
        code: 'validation_failed',
        error: usernameMessages.reserved,
        fields: { username: usernameMessages.reserved },
      });
    }
    // §5's own checks come first, word for word.
    const short = await t.call(usersRoutes.updateProfile, { token, body: { username: 'mod' } });
    expect(short.json().error).toBe(usernameMessages.length);
    expect((await t.call(usersRoutes.getProfile, { token })).json().user.username).toBe('before_1');
    const ok = await t.call(usersRoutes.updateProfile, {
      token,
      body: { username: 'team_alpha_fx' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 409 username_taken case-insensitively and keeps the old name', async () => {
    await createUser(t, { username: 'TakenName' });
    const { token } = await signedIn({ username: 'mine_1' });
    const res = await t.call(usersRoutes.updateProfile, { token, body: { username: 'takenname' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'username_taken',
      error: usersMessages.usernameTaken,
    });
    expect((await t.call(usersRoutes.getProfile, { token })).json().user.username).toBe('mine_1');
  });
});

describe('vendor role', () => {
  it('adds the role once and returns a vendor-scoped token', async () => {
    const { user, token } = await signedIn();
    const res = await t.call(usersRoutes.addVendorRole, { token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      accessTokenValidity: 900,
      user: { email: user.email, roles: ['buyer', 'vendor'] },
    });
    expect(body.user.token).toBe(body.token);
    const claims = await t.deps.tokens.verify(body.token, ['tradeshelf:vendor']);
    expect(claims).toMatchObject({ sub: user.id, aud: 'tradeshelf:vendor' });
    // A vendor-area token is not an API token.
    expect((await t.call(usersRoutes.getProfile, { token: body.token })).statusCode).toBe(401);
    // It is one in the vendor area: a vendor route takes it (403 here only because no storefront exists yet).
    const sales = await t.app.inject({
      url: '/api/v1/vendor/purchases',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(sales.statusCode).toBe(403);
    const forged = await t.app.inject({
      url: '/api/v1/vendor/purchases',
      headers: { authorization: `Bearer ${body.token}x` },
    });
    expect(forged.statusCode).toBe(401);
    const again = await t.call(usersRoutes.addVendorRole, { token });
    expect(again.json().user.roles).toEqual(['buyer', 'vendor']);
  });
});

describe('avatar upload', () => {
  it('stores a sniffed PNG as image variants and the profile points at them', async () => {
    const { token } = await signedIn();
    const res = await upload(token, PNG, 'avatar.png');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.url).toMatch(/^\/files\/public\/avatars\/usr_[^/]+\/[0-9a-f]{20}\/2\.jpg$/);
    expect(body.user.avatarUrl).toBe(body.url);
    expect(body.user.avatar).toEqual({
      base: body.url.replace(/\/2\.jpg$/, ''),
      width: 2,
      height: 2,
      widths: [2],
    });
    const file = await t.app.inject({ method: 'GET', url: body.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect((await t.call(usersRoutes.getProfile, { token })).json().user.avatarUrl).toBe(body.url);
  });

  it('trusts the bytes, not the name or declared type', async () => {
    const { token } = await signedIn();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await upload(token, html, 'evil.png', 'image/png');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: usersMessages.imageType,
    });
    // A PNG named and declared as something else is still a PNG.
    const ok = await upload(token, PNG, 'photo.txt', 'text/plain');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.avatar.widths).toEqual([2]);
  });

  it('refuses files over 2 MB and empty requests, changing nothing', async () => {
    const { token } = await signedIn();
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(token, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    const empty = await upload(token, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect((await t.call(usersRoutes.getProfile, { token })).json().user.avatarUrl).toBeNull();
  });

  it('refuses other categories and non-multipart bodies', async () => {
    const { token } = await signedIn();
    const cat = await t.app.inject({
      method: 'POST',
      url: '/api/v1/image-upload?category=banner',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(cat.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/image-upload?category=avatar',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(415);
  });
});
