import { crc32 } from 'node:zlib';
import { apiErrorSchema, authRoutes, usersMessages, usersRoutes } from '@tradeshelf/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { multipartBody } from '../../../test/http.ts';
import { useTestApp } from '../../../test/harness.ts';

/** Issue 14: uploads are decoded and re-encoded; what is stored is clean, bounded and varied. */

const t = useTestApp();

async function signedIn() {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  return res.json().token as string;
}

function upload(token: string, data: Buffer, type = 'image/png') {
  const { body, contentType } = multipartBody([{ name: 'file', filename: 'me', type, data }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/image-upload?category=avatar',
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

const noisyPng = () =>
  sharp({
    create: {
      width: 96,
      height: 64,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();

/** A PNG chunk with its CRC, so only what we mean to break is broken. */
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

async function expectNothingChanged(token: string) {
  const profile = (await t.call(usersRoutes.getProfile, { token })).json();
  expect(profile.user.avatarUrl).toBeNull();
  expect(profile.user.avatar).toBeNull();
}

describe('uploads that are not whole images', () => {
  it('refuses a cut-off PNG with 400 and the field named, storing nothing', async () => {
    const token = await signedIn();
    const png = await noisyPng();
    const res = await upload(token, png.subarray(0, Math.floor(png.length / 2)));
    expect(res.statusCode).toBe(400);
    expect(apiErrorSchema.parse(res.json())).toEqual({
      error: usersMessages.imageCorrupt,
      code: 'validation_failed',
      fields: { file: usersMessages.imageCorrupt },
    });
    await expectNothingChanged(token);
  });

  it('refuses a PNG whose pixel data is damaged (a valid header and size)', async () => {
    const token = await signedIn();
    const png = Buffer.from(await noisyPng());
    // Flip bytes inside the first IDAT chunk's compressed data (after the 8-byte signature and IHDR).
    const idat = png.indexOf('IDAT', 0, 'latin1');
    for (let i = idat + 20; i < idat + 120; i++) png[i] = png[i]! ^ 0x5a;
    const res = await upload(token, png);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    await expectNothingChanged(token);
  });

  it('refuses a PNG signature followed by garbage', async () => {
    const token = await signedIn();
    const fake = Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.from('not really a picture'),
    ]);
    const res = await upload(token, fake);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.file).toBe(usersMessages.imageCorrupt);
    await expectNothingChanged(token);
  });

  it('refuses an image declaring more than 40 megapixels with 413, before decoding it', async () => {
    const token = await signedIn();
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20_000, 0);
    ihdr.writeUInt32BE(20_000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    // 400 million pixels in a 60-byte file: a decompression bomb if decoded.
    const bomb = Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      chunk('IDAT', Buffer.from('789c030000000001', 'hex')),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const res = await upload(token, bomb);
    expect(res.statusCode).toBe(413);
    expect(apiErrorSchema.parse(res.json())).toMatchObject({
      code: 'payload_too_large',
      error: usersMessages.imagePixels,
    });
    await expectNothingChanged(token);
  });
});

describe('what is stored', () => {
  it('strips EXIF (camera, owner; GPS goes with the whole block), bounds the size and stores AVIF, WebP and JPEG variants', async () => {
    const token = await signedIn();
    const photo = await sharp({
      create: { width: 1600, height: 1000, channels: 3, background: '#3b82f6' },
    })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneCo', Model: 'X1', Copyright: 'secret owner' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
      })
      .toBuffer();
    // The fixture really carries what must be removed.
    expect((await sharp(photo).metadata()).exif?.toString('latin1')).toContain('secret owner');

    const res = await upload(token, photo, 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const { avatar, avatarUrl } = res.json().user;
    // Square, at most 256 px, with a smaller variant for 1x screens.
    expect(avatar).toMatchObject({ width: 256, height: 256, widths: [128, 256] });
    expect(avatarUrl).toBe(`${avatar.base}/256.jpg`);

    const files = [
      ...avatar.widths.flatMap((w: number) => [
        { url: `${avatar.base}/${w}.avif`, w, format: 'heif', type: 'image/avif' },
        { url: `${avatar.base}/${w}.webp`, w, format: 'webp', type: 'image/webp' },
      ]),
      { url: avatarUrl, w: 256, format: 'jpeg', type: 'image/jpeg' },
    ];
    for (const f of files) {
      const got = await t.app.inject({ method: 'GET', url: f.url });
      expect(got.statusCode, f.url).toBe(200);
      expect(got.headers['content-type'], f.url).toBe(f.type);
      expect(got.rawPayload.includes('secret owner'), f.url).toBe(false);
      expect(got.rawPayload.includes('PhoneCo'), f.url).toBe(false);
      const meta = await sharp(got.rawPayload).metadata();
      expect(meta.format, f.url).toBe(f.format);
      expect([meta.width, meta.height], f.url).toEqual([f.w, f.w]);
      expect(meta.exif, f.url).toBeUndefined();
      expect(meta.xmp, f.url).toBeUndefined();
      expect(meta.iptc, f.url).toBeUndefined();
    }
  });

  it('replacing an avatar removes the old variants', async () => {
    const token = await signedIn();
    const first = (await upload(token, await noisyPng())).json().user.avatar;
    const second = (
      await upload(
        token,
        await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f00' } })
          .png()
          .toBuffer(),
      )
    ).json().user.avatar;
    expect(second.base).not.toBe(first.base);
    expect(second.widths).toEqual([40]);
    for (const w of first.widths) {
      const old = await t.app.inject({ method: 'GET', url: `${first.base}/${w}.webp` });
      expect(old.statusCode).toBe(404);
    }
    const now = await t.app.inject({ method: 'GET', url: `${second.base}/40.avif` });
    expect(now.statusCode).toBe(200);
  });
});
