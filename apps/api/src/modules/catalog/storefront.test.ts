import {
  authRoutes,
  catalogRoutes,
  storefrontMessages,
  usersMessages,
  usersRoutes,
  vendorStorefrontRoutes as routes,
  vendorUrlMessages,
  VENDOR_URL_RENAMES_MAX,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createVendor } from '../../../test/factories/catalog.ts';
import { createUser } from '../../../test/factories/users.ts';
import { multipartBody } from '../../../test/http.ts';
import { useTestApp } from '../../../test/harness.ts';

/** Issue 19: a vendor sets up their storefront; ADR 041's address rules and redirects. */

const t = useTestApp();

let n = 0;
const uniqueUrl = (stem = 'shop') => `${stem}-${++n}-${Math.random().toString(36).slice(2, 6)}`;

async function login(user: { email: string; password: string }) {
  const res = await t.call(authRoutes.login, { body: user });
  return res.json().token as string;
}

/** A user who became a vendor through the API: the role, and no storefront yet. */
async function newVendor() {
  const user = await createUser(t);
  const token = await login(user);
  const res = await t.call(usersRoutes.addVendorRole, { token });
  expect(res.statusCode, res.body).toBe(200);
  return { user, token, vendorToken: res.json().token as string };
}

const save = (token: string, body: Record<string, unknown>) =>
  t.call(routes.saveVendorStorefront, { token, body });

const vendorRow = async (userId: string) =>
  (
    await t.database.db.execute<{ vendor_url: string; display_name: string; bio: string }>(
      sql`select vendor_url, display_name, bio from vendors where user_id = ${userId}`,
    )
  ).rows[0] ?? null;

function upload(token: string, kind: string, data: Buffer, filename = 'logo.png') {
  const { body, contentType } = multipartBody([
    { name: 'file', filename, type: 'image/png', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/storefront/images/${kind}`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2563eb' } })
    .png()
    .withExif({ IFD0: { Artist: 'vendor laptop', Copyright: 'GPS 51.5,-0.1' } })
    .toBuffer();

describe('who may have a storefront', () => {
  it('a buyer without the vendor role gets 403 on every storefront route', async () => {
    const buyer = await login(await createUser(t));
    for (const res of [
      await t.call(routes.vendorStorefront, { token: buyer }),
      await save(buyer, { vendorUrl: uniqueUrl(), displayName: 'Nope' }),
      await t.call(routes.vendorUrlAvailability, { token: buyer, query: { vendorUrl: 'abc' } }),
      await upload(buyer, 'avatar', await picture(64, 64)),
      await t.call(routes.removeStorefrontImage, { token: buyer, params: { kind: 'banner' } }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: storefrontMessages.vendorsOnly, code: 'forbidden' });
    }
    expect((await t.call(routes.vendorStorefront, { token: null })).statusCode, 'no token').toBe(
      401,
    );
  });

  it('a new vendor has no storefront and no vendors row until the first save', async () => {
    const { user, token } = await newVendor();
    const res = await t.call(routes.vendorStorefront, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ storefront: null });
    expect(await vendorRow(user.id)).toBeNull();
    // Pictures wait for the storefront.
    const early = await upload(token, 'avatar', await picture(64, 64));
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe(storefrontMessages.setUpFirst);
  });
});

describe('creating and editing', () => {
  it('creates the storefront (address lower-cased), shows it publicly at once, and edits it', async () => {
    const { user, token, vendorToken } = await newVendor();
    const url = uniqueUrl('Alpha');
    const res = await save(token, {
      vendorUrl: `  ${url.toUpperCase()} `,
      displayName: 'Alpha Signals',
      bio: 'Order-flow tools.\nMade by traders.',
      socialLinks: {
        website: 'https://alpha.example',
        x: 'https://x.com/alpha',
        youtube: '',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { storefront } = res.json();
    expect(storefront).toMatchObject({
      vendorUrl: url.toLowerCase(),
      path: `/v/${url.toLowerCase()}`,
      displayName: 'Alpha Signals',
      bio: 'Order-flow tools.\nMade by traders.',
      socialLinks: { website: 'https://alpha.example', x: 'https://x.com/alpha' },
      avatar: null,
      banner: null,
      previousUrls: [],
      renamesLeft: VENDOR_URL_RENAMES_MAX,
    });
    expect(await vendorRow(user.id)).toMatchObject({ vendor_url: url.toLowerCase() });

    // The vendor-audience token reads the same storefront.
    const again = await t.call(routes.vendorStorefront, { token: vendorToken });
    expect(again.json().storefront).toEqual(storefront);

    const publicProfile = async (vendorUrl: string) =>
      t.call(catalogRoutes.vendorProfile, { query: { vendorUrl } });
    expect((await publicProfile(url)).json().vendor).toMatchObject({
      displayName: 'Alpha Signals',
      bio: 'Order-flow tools.\nMade by traders.',
    });

    const edited = await save(token, {
      vendorUrl: url.toLowerCase(),
      displayName: 'Alpha Signals Pro',
      bio: 'Now with courses.',
      socialLinks: { discord: 'https://discord.gg/alpha' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const shown = (await publicProfile(url)).json().vendor;
    expect(shown).toMatchObject({
      displayName: 'Alpha Signals Pro',
      bio: 'Now with courses.',
      socialLinks: { discord: 'https://discord.gg/alpha' },
    });
  });

  it('two vendors asking for one address at once: one gets it, the other 409 with the field', async () => {
    const a = await newVendor();
    const b = await newVendor();
    const url = uniqueUrl('race');
    const [ra, rb] = await Promise.all([
      save(a.token, { vendorUrl: url, displayName: 'A' }),
      save(b.token, { vendorUrl: url.toUpperCase(), displayName: 'B' }),
    ]);
    const codes = [ra.statusCode, rb.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const lost = ra.statusCode === 409 ? ra : rb;
    expect(lost.json()).toEqual({
      error: vendorUrlMessages.taken,
      code: 'conflict',
      fields: { vendorUrl: vendorUrlMessages.taken },
    });
    const owners = await t.database.db.execute(
      sql`select user_id from vendors where lower(vendor_url) = ${url}`,
    );
    expect(owners.rows).toHaveLength(1);
    // The loser has no storefront yet and can pick another address.
    const loser = ra.statusCode === 409 ? a : b;
    expect(await vendorRow(loser.user.id)).toBeNull();
    const other = await save(loser.token, { vendorUrl: uniqueUrl('race'), displayName: 'B' });
    expect(other.statusCode).toBe(200);
  });

  it('refuses reserved, malformed and taken addresses with field messages', async () => {
    const { token } = await newVendor();
    const cases: Array<[string, number, string]> = [
      ['admin', 400, vendorUrlMessages.reserved],
      ['Tradeshelf', 400, vendorUrlMessages.reserved],
      ['ab', 400, vendorUrlMessages.length],
      ['a'.repeat(31), 400, vendorUrlMessages.length],
      ['-edge', 400, vendorUrlMessages.invalid],
      ['my--shop', 400, vendorUrlMessages.invalid],
      ['my_shop', 400, vendorUrlMessages.invalid],
      ['../etc', 400, vendorUrlMessages.invalid],
    ];
    for (const [vendorUrl, status, message] of cases) {
      const res = await save(token, { vendorUrl, displayName: 'X' });
      expect(res.statusCode, vendorUrl).toBe(status);
      expect(res.json().fields, vendorUrl).toEqual({ vendorUrl: message });
    }
    const availability = async (vendorUrl: string) =>
      (await t.call(routes.vendorUrlAvailability, { token, query: { vendorUrl } })).json();
    expect(await availability('admin')).toEqual({
      vendorUrl: 'admin',
      available: false,
      message: vendorUrlMessages.reserved,
    });
    const holder = await newVendor();
    const held = uniqueUrl('held');
    await save(holder.token, { vendorUrl: held, displayName: 'Holder' });
    expect(await availability(held.toUpperCase())).toMatchObject({
      available: false,
      message: vendorUrlMessages.taken,
    });
    expect(await availability(uniqueUrl('free'))).toMatchObject({
      available: true,
      message: vendorUrlMessages.available,
    });
  });

  it('bad text, bad links or too many: 400 with fields, and nothing changes', async () => {
    const { user, token } = await newVendor();
    const url = uniqueUrl('steady');
    await save(token, { vendorUrl: url, displayName: 'Steady', bio: 'Before' });
    const before = await vendorRow(user.id);
    const bad = [
      [{ displayName: 'Bad\u0007name' }, 'displayName', storefrontMessages.unreadable],
      [{ displayName: 'x'.repeat(61) }, 'displayName', storefrontMessages.nameLength],
      [{ displayName: '   ' }, 'displayName', storefrontMessages.nameRequired],
      [{ bio: 'Bytes \uFFFD lost' }, 'bio', storefrontMessages.unreadable],
      [{ bio: 'y'.repeat(601) }, 'bio', storefrontMessages.bioLength],
      [
        { socialLinks: { website: 'http://plain.example' } },
        'socialLinks.website',
        storefrontMessages.linkHttps,
      ],
      [
        { socialLinks: { website: 'javascript:alert(1)' } },
        'socialLinks.website',
        storefrontMessages.linkHttps,
      ],
      [
        { socialLinks: { x: 'https://evil.example/alpha' } },
        'socialLinks.x',
        'Link to x.com or twitter.com.',
      ],
      [
        { socialLinks: { website: 'https://user:pw@site.example' } },
        'socialLinks.website',
        storefrontMessages.linkCredentials,
      ],
      [
        { socialLinks: { website: 'not a url' } },
        'socialLinks.website',
        storefrontMessages.linkInvalid,
      ],
      [
        {
          socialLinks: {
            website: 'https://a.example',
            x: 'https://x.com/a',
            youtube: 'https://youtube.com/@a',
            discord: 'https://discord.gg/a',
            tradingview: 'https://www.tradingview.com/u/a/',
            telegram: 'https://t.me/a',
          },
        },
        'socialLinks',
        storefrontMessages.tooManyLinks,
      ],
    ] as const;
    for (const [change, field, message] of bad) {
      const res = await save(token, {
        vendorUrl: url,
        displayName: 'Steady',
        bio: 'After',
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().fields[field], JSON.stringify(change)).toBe(message);
    }
    // NUL never reaches the schema: the HTTP layer refuses it first (ADR 020).
    const nul = await save(token, { vendorUrl: url, displayName: 'Bad\u0000name' });
    expect(nul.statusCode).toBe(400);
    expect(await vendorRow(user.id)).toEqual(before);
  });
});

describe('reserved addresses already in use', () => {
  it('a storefront that has a reserved address (the platform’s own) can still be edited', async () => {
    const { user, token } = await newVendor();
    await createVendor(t, { userId: user.id, vendorUrl: 'staff', displayName: 'Staff picks' });
    const res = await save(token, { vendorUrl: 'staff', displayName: 'Staff picks, renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().storefront).toMatchObject({ vendorUrl: 'staff' });
    const other = await newVendor();
    const grab = await save(other.token, { vendorUrl: 'staff', displayName: 'Me' });
    expect(grab.statusCode).toBe(400);
    expect(grab.json().fields).toEqual({ vendorUrl: vendorUrlMessages.reserved });
  });
});

// Probe of issue 26: nothing stopped a storefront from calling itself "Tradeshelf Support". Names
// that pass for the platform are reserved, however they are spelt (ADR 052).
describe('reserved storefront names', () => {
  it('refuses names that pass for the platform, spelt any way, and changes nothing', async () => {
    const { user, token } = await newVendor();
    const url = uniqueUrl('names');
    expect(
      (await save(token, { vendorUrl: url, displayName: 'Alpha Team Trading' })).statusCode,
    ).toBe(200);
    const before = await vendorRow(user.id);
    for (const displayName of [
      'Tradeshelf',
      'Tradeshelf Support',
      'TRADESHELF deals',
      'Trade-She1f',
      'Tr4desh3lf official',
      'Support',
      'Admin Team',
      'Official-Staff',
      'S.U.P.P.O.R.T',
      'Secur1ty',
      'Ѕupport', // Cyrillic Ѕ
      'Suppоrt', // Cyrillic о
      'adrnin',
    ]) {
      const res = await save(token, { vendorUrl: url, displayName });
      expect(res.statusCode, displayName).toBe(400);
      expect(res.json().fields, displayName).toEqual({
        displayName: storefrontMessages.nameReserved,
      });
    }
    expect(await vendorRow(user.id)).toEqual(before);
    // A name that merely contains such a word is a name like any other.
    for (const displayName of ['Security Scanner Pro', 'The Support Level Lab', 'Team Alpha'])
      expect((await save(token, { vendorUrl: url, displayName })).statusCode, displayName).toBe(
        200,
      );
    // A new storefront cannot take one either.
    const fresh = await newVendor();
    const created = await save(fresh.token, { vendorUrl: uniqueUrl('new'), displayName: 'Staff' });
    expect(created.statusCode).toBe(400);
    expect(await vendorRow(fresh.user.id)).toBeNull();
  });

  it('a storefront that already has a reserved name (the platform’s own) keeps it when edited', async () => {
    const { user, token } = await newVendor();
    const url = uniqueUrl('platform');
    await createVendor(t, { userId: user.id, vendorUrl: url, displayName: 'Tradeshelf' });
    const res = await save(token, { vendorUrl: url, displayName: 'Tradeshelf', bio: 'Our own.' });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('changing the address (ADR 041)', () => {
  it('keeps the old address as a redirect the vendor holds; others cannot take it', async () => {
    const { token } = await newVendor();
    const first = uniqueUrl('first');
    const second = uniqueUrl('second');
    await save(token, { vendorUrl: first, displayName: 'Mover' });
    const moved = await save(token, { vendorUrl: second, displayName: 'Mover' });
    expect(moved.json().storefront).toMatchObject({
      vendorUrl: second,
      previousUrls: [first],
      renamesLeft: VENDOR_URL_RENAMES_MAX - 1,
    });
    // The public profile answers the old address with the storefront it now names.
    const viaOld = await t.call(catalogRoutes.vendorProfile, { query: { vendorUrl: first } });
    expect(viaOld.statusCode).toBe(200);
    expect(viaOld.json().vendor.vendorUrl).toBe(second);

    const other = await newVendor();
    const grab = await save(other.token, { vendorUrl: first, displayName: 'Squatter' });
    expect(grab.statusCode).toBe(409);
    expect(grab.json().fields).toEqual({ vendorUrl: vendorUrlMessages.taken });

    // Taking back one's own old address drops that redirect.
    const back = await save(token, { vendorUrl: first, displayName: 'Mover' });
    expect(back.json().storefront).toMatchObject({ vendorUrl: first, previousUrls: [second] });
  });

  it('stops after the allowed number of renames', async () => {
    const { token } = await newVendor();
    await save(token, { vendorUrl: uniqueUrl('r'), displayName: 'R' });
    for (let i = 0; i < VENDOR_URL_RENAMES_MAX; i++)
      expect((await save(token, { vendorUrl: uniqueUrl('r'), displayName: 'R' })).statusCode).toBe(
        200,
      );
    const refused = await save(token, { vendorUrl: uniqueUrl('r'), displayName: 'R' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fields).toEqual({ vendorUrl: vendorUrlMessages.tooManyRenames });
  });
});

describe('storefront pictures', () => {
  async function withStorefront() {
    const v = await newVendor();
    const res = await save(v.token, { vendorUrl: uniqueUrl('pic'), displayName: 'Pictures' });
    return { ...v, storefront: res.json().storefront };
  }

  it('stores avatar and banner cleaned and resized, shown on the public profile', async () => {
    const { token, storefront } = await withStorefront();
    const avatar = await upload(token, 'avatar', await picture(600, 400));
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect(avatar.json().storefront.avatar).toMatchObject({ width: 256, height: 256 });
    const banner = await upload(token, 'banner', await picture(2400, 900));
    expect(banner.statusCode, banner.body).toBe(200);
    const shown = banner.json().storefront.banner;
    expect(shown).toMatchObject({ width: 1200, height: 400 });
    expect(shown.base).toContain(`/vendors/${storefront.id}/banner/`);
    const file = await t.app.inject({ method: 'GET', url: `${shown.base}/1200.jpg` });
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([1200, 400, undefined]);
    const profile = await t.call(catalogRoutes.vendorProfile, {
      query: { vendorUrl: storefront.vendorUrl },
    });
    expect(profile.json().vendor.banner).toEqual(shown);

    const removed = await t.call(routes.removeStorefrontImage, {
      token,
      params: { kind: 'banner' },
    });
    expect(removed.json().storefront.banner).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `${shown.base}/1200.jpg` })).statusCode).toBe(
      404,
    );
  });

  it('refuses wrong types, damaged files, oversize files and path tricks, changing nothing', async () => {
    const { token, storefront } = await withStorefront();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>');
    const wrong = await upload(token, 'avatar', svg, 'logo.png');
    expect(wrong.statusCode).toBe(415);
    expect(wrong.json().fields).toEqual({ file: usersMessages.imageType });

    const png = await picture(64, 64);
    const damaged = await upload(token, 'avatar', png.subarray(0, png.length - 30));
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().fields).toEqual({ file: usersMessages.imageCorrupt });

    const huge = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    const oversize = await upload(token, 'banner', huge);
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json().fields).toEqual({ file: usersMessages.imageTooLarge });

    // The kind is a fixed word; a path in it is not a route to anywhere.
    for (const kind of ['..%2F..%2Fusers', '..', 'avatar%2F..%2Fbanner']) {
      const res = await upload(token, kind, png);
      expect([400, 404], kind).toContain(res.statusCode);
    }
    // The client's file name never reaches storage.
    const named = await upload(token, 'avatar', png, '../../../../etc/passwd');
    expect(named.statusCode).toBe(200);
    expect(named.json().storefront.avatar.base).toMatch(
      new RegExp(`/vendors/${storefront.id}/avatar/[0-9a-f]+$`),
    );
    const after = await t.call(routes.vendorStorefront, { token });
    expect(after.json().storefront.banner).toBeNull();
  });
});
