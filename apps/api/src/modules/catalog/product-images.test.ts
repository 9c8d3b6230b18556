import { authRoutes, catalogMessages, catalogRoutes, usersMessages } from '@tradeshelf/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createUser } from '../../../test/factories/users.ts';
import { multipartBody } from '../../../test/http.ts';
import { useTestApp } from '../../../test/harness.ts';

/** Issue 14: vendors' own product pictures go through the same pipeline as avatars. */

const t = useTestApp();

async function tokenOf(user: { email: string; password: string }) {
  const res = await t.call(authRoutes.login, { body: user });
  return res.json().token as string;
}

async function vendorWithProduct() {
  const owner = await createUser(t, { roles: ['buyer', 'vendor'] });
  const vendor = await createVendor(t, { userId: owner.id });
  const product = await createProduct(t, vendor.id);
  return { token: await tokenOf(owner), productId: product.id };
}

function upload(token: string, productId: string, data: Buffer) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: 'shot.png', type: 'image/png', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/products/${productId}/images`,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
}

const screenshot = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#131722' } })
    .png()
    .withExif({ IFD0: { Artist: 'vendor laptop' } })
    .toBuffer();

const details = async (id: string) =>
  (await t.call(catalogRoutes.productDetails, { query: { id } })).json().product;

describe('product pictures from vendors', () => {
  it('the first upload becomes the cover; pictures are bounded to 1200 px and cleaned', async () => {
    const { token, productId } = await vendorWithProduct();
    const res = await upload(token, productId, await screenshot(2400, 1500));
    expect(res.statusCode).toBe(200);
    const product = res.json().product;
    expect(product.gallery).toHaveLength(1);
    expect(product.image).toEqual(product.gallery[0]);
    expect(product.image).toMatchObject({ width: 1200, height: 750, widths: [480, 800, 1200] });
    const file = await t.app.inject({ method: 'GET', url: `${product.image.base}/800.webp` });
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.exif]).toEqual([800, undefined]);

    const second = await upload(token, productId, await screenshot(640, 360));
    expect(second.json().product.gallery.map((g: { width: number }) => g.width)).toEqual([
      1200, 640,
    ]);
    // Public pages and lists see the same cover.
    expect((await details(productId)).image).toEqual(product.image);
  });

  it("refuses another vendor's product as not found, and a damaged file, changing nothing", async () => {
    const { productId } = await vendorWithProduct();
    const stranger = await tokenOf(await createUser(t, { roles: ['buyer', 'vendor'] }));
    const res = await upload(stranger, productId, await screenshot(100, 100));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', error: catalogMessages.productNotFound });

    const { token, productId: own } = await vendorWithProduct();
    const png = await screenshot(300, 200);
    const broken = await upload(token, own, png.subarray(0, png.length - 30));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().fields.file).toBe(usersMessages.imageCorrupt);
    expect((await details(productId)).gallery).toEqual([]);
    expect((await details(own)).gallery).toEqual([]);
  });

  it('keeps at most 8 pictures', async () => {
    const { token, productId } = await vendorWithProduct();
    for (let i = 0; i < 8; i++) {
      const png = await sharp({
        create: { width: 40 + i, height: 30, channels: 3, background: '#123456' },
      })
        .png()
        .toBuffer();
      expect((await upload(token, productId, png)).statusCode).toBe(200);
    }
    const ninth = await upload(token, productId, await screenshot(50, 50));
    expect(ninth.statusCode).toBe(422);
    expect(ninth.json().error).toBe(catalogMessages.tooManyImages);
    expect((await details(productId)).gallery).toHaveLength(8);
  });

  it('a vendor filling a catalogue is not held to the avatar’s hourly budget (issue 26)', async () => {
    const owner = await createUser(t, { roles: ['buyer', 'vendor'] });
    const vendor = await createVendor(t, { userId: owner.id });
    const token = await tokenOf(owner);
    const products = [
      await createProduct(t, vendor.id),
      await createProduct(t, vendor.id),
      await createProduct(t, vendor.id),
    ];
    // 24 catalogue pictures in one sitting: past the 20 an hour all pictures once shared.
    for (const [p, product] of products.entries())
      for (let i = 0; i < 8; i++) {
        const res = await upload(token, product.id, await screenshot(40 + p * 8 + i, 30));
        expect(res.statusCode, res.body).toBe(200);
      }
    // The avatar keeps its own budget: 20 an hour, then 429 with Retry-After.
    const avatar = () => {
      const { body, contentType } = multipartBody([
        { name: 'file', filename: 'me.png', type: 'image/png', data: tinyPng },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/image-upload?category=avatar',
        payload: body,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      });
    };
    const tinyPng = await screenshot(8, 8);
    for (let i = 0; i < 20; i++) expect((await avatar()).statusCode).toBe(200);
    const over = await avatar();
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});
