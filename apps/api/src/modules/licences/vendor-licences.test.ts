import { createHash } from 'node:crypto';
import {
  licencesRoutes,
  vendorLicencesRoutes as vr,
  type Licence,
  type RouteDef,
  type SigningKey,
  type VendorLicencePolicy,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { vendorToken } from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor, type Vendor } from '../../../test/factories/catalog.ts';
import { vendorAndForeignProduct } from '../../../test/factories/vendors.ts';
import { buyPaidProduct, createBuyer } from '../../../test/factories/orders.ts';
import { startTestApp, useTestApp, type TestApp } from '../../../test/harness.ts';
import { verifies } from '../../../test/licences.ts';
import { multipartBody } from '../../../test/http.ts';
import { makeZip } from '../../../test/zip.ts';
import type { Storage } from '../../integrations/storage/port.ts';

// The vendor's licence terms, signing keys and builds through HTTP on a real database (ADR 044):
// who may call, terms that apply from the next activation, rotation that keeps issued licences
// validating, and build uploads checked by their bytes.

const t = useTestApp();
let vendor: Vendor;
let token: string;
/** Another vendor, and a product of theirs that the vendor's routes must not reach. */
let other: { token: string; productId: string };

beforeAll(async () => {
  ({ vendor, token, other } = await vendorAndForeignProduct(t, { kind: 'app' }));
});

const newApp = () => createProduct(t, vendor.id, { kind: 'app', amount: 9_900 });

async function policyOf(res: Awaited<ReturnType<TestApp['call']>>) {
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().policy as VendorLicencePolicy;
}

const setPolicy = (productId: string, body: unknown, as = token) =>
  t.call(vr.updateLicencePolicy, { token: as, params: { productId }, body });

async function licenceOf(buyer: { token: string }): Promise<Licence> {
  const res = await t.call(licencesRoutes.licences, { token: buyer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().licences[0];
}

const activate = (key: string, binding: string, fingerprint: string) =>
  t.call(licencesRoutes.activateLicence, {
    body: { key, binding, fingerprint, name: `Device ${fingerprint}` },
  });

const validate = async (key: string, fingerprint: string) => {
  const res = await t.call(licencesRoutes.validateLicence, { body: { key, fingerprint } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown> & { keyId: string; valid: boolean };
};

function uploadBuild(
  productId: string,
  file: { name: string; data: Buffer },
  version = '1.2.0',
  as = token,
) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: file.name, type: 'application/octet-stream', data: file.data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/licences/${productId}/builds?version=${encodeURIComponent(version)}`,
    payload: body,
    headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
  });
}

/** The smallest ZIP: an empty archive's end record. */
const zip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
/** Builds are deliverables: their archives' directories are read and checked (ADR 053). */
const zipWithEntry = makeZip([{ name: 'GridBot/bot.exe', data: Buffer.alloc(60, 1) }]);

describe('who may set licence terms', () => {
  it('refuses a buyer (403) and another vendor (404) on every route', async () => {
    const app = await newApp();
    const buyer = await createBuyer(t);
    const bodies: Record<string, unknown> = {
      updateLicencePolicy: { maxActivations: 1, binding: null },
    };
    for (const [name, route] of Object.entries(vr) as Array<[string, RouteDef]>) {
      if (route.multipart) continue;
      const params: Record<string, string> = route.path.includes('{productId}')
        ? { productId: app.id }
        : {};
      const body = bodies[name];
      const asBuyer = await t.call(route, {
        token: buyer.token,
        params,
        ...(body ? { body } : {}),
      });
      expect(asBuyer.statusCode, `${name} as a buyer`).toBe(403);
      if (!route.path.includes('{productId}')) continue;
      const asOther = await t.call(route, {
        token: other.token,
        params,
        ...(body ? { body } : {}),
      });
      expect(asOther.statusCode, `${name} as another vendor`).toBe(404);
    }
    expect(
      (await uploadBuild(app.id, { name: 'app.zip', data: zip }, '1.0.0', buyer.token)).statusCode,
    ).toBe(403);
    expect(
      (await uploadBuild(app.id, { name: 'app.zip', data: zip }, '1.0.0', other.token)).statusCode,
    ).toBe(404);
    // A product that is not an app has no licence terms.
    const course = await createProduct(t, vendor.id, { kind: 'course' });
    expect(
      (await t.call(vr.vendorLicencePolicy, { token, params: { productId: course.id } }))
        .statusCode,
    ).toBe(404);
    // Nothing changed for the app.
    const policy = await policyOf(
      await t.call(vr.vendorLicencePolicy, { token, params: { productId: app.id } }),
    );
    expect(policy.app).toMatchObject({ maxActivations: 3, binding: null, build: null });
  });

  it('lists the vendor’s apps only, with terms and licence counts', async () => {
    const app = await newApp();
    await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const res = await t.call(vr.vendorLicenceApps, { token, query: { limit: '100' } });
    expect(res.statusCode, res.body).toBe(200);
    const apps = res.json().apps as Array<{ productId: string; counts: unknown }>;
    expect(apps.map((a) => a.productId)).not.toContain(other.productId);
    expect(apps.find((a) => a.productId === app.id)).toMatchObject({
      maxActivations: 3,
      counts: { issued: 1, active: 1, activations: 0 },
    });
  });
});

describe('licence terms', () => {
  it('a policy change applies to the next activation of licences already issued', async () => {
    const app = await newApp();
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const { key } = await licenceOf(buyer);
    expect((await activate(key, 'device', 'desk-top-0001')).statusCode).toBe(200);

    let policy = await policyOf(await setPolicy(app.id, { maxActivations: 1, binding: null }));
    expect(policy.app).toMatchObject({ maxActivations: 1, counts: { activations: 1 } });
    const refused = await activate(key, 'device', 'lap-top-0002');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('activation_limit');
    // The device already activated stays.
    expect((await activate(key, 'device', 'desk-top-0001')).json().created).toBe(false);
    expect((await licenceOf(buyer)).maxActivations).toBe(1);

    policy = await policyOf(
      await setPolicy(app.id, { maxActivations: 5, binding: 'metatrader_account' }),
    );
    expect(policy.app).toMatchObject({ maxActivations: 5, binding: 'metatrader_account' });
    const wrongPreset = await activate(key, 'device', 'lap-top-0002');
    expect(wrongPreset.statusCode).toBe(422);
    expect(wrongPreset.json().fields.binding).toMatch(/MetaTrader account/);
    expect((await activate(key, 'metatrader_account', '50012345')).statusCode).toBe(200);
    // A licence issued after the change carries the new terms.
    const next = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    expect(await licenceOf(next)).toMatchObject({
      maxActivations: 5,
      binding: 'metatrader_account',
    });

    const bad = await setPolicy(app.id, { maxActivations: 0, binding: 'usb_stick' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields ?? {})).toEqual(
      expect.arrayContaining(['maxActivations']),
    );
  });
});

describe('signing keys', () => {
  it('rotation: issued licences keep validating with their key; new licences sign with the new one', async () => {
    const app = await newApp();
    const before = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const oldKey = (await licenceOf(before)).key;
    await activate(oldKey, 'device', 'desk-top-0001');
    const shown = (
      await policyOf(await t.call(vr.vendorLicencePolicy, { token, params: { productId: app.id } }))
    ).keys;
    expect(shown).toHaveLength(1);
    const k1 = shown[0]!;
    const first = await validate(oldKey, 'desk-top-0001');
    expect(first.keyId).toBe(k1.keyId);
    expect(verifies(first, k1.publicKeyPem)).toBe(true);

    const rotated = await t.call(vr.rotateLicenceKey, { token });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const keys = rotated.json().keys as SigningKey[];
    expect(keys.map((k) => [k.keyId === k1.keyId, k.retiredAt === null])).toEqual([
      [false, true],
      [true, false],
    ]);
    const k2 = keys[0]!;
    expect(keys[1]!.licences).toBeGreaterThanOrEqual(1);

    // The licence issued before still validates, signed with the key its app embeds.
    const again = await validate(oldKey, 'desk-top-0001');
    expect(again).toMatchObject({ keyId: k1.keyId, valid: true });
    expect(verifies(again, k1.publicKeyPem)).toBe(true);
    expect(verifies(again, k2.publicKeyPem)).toBe(false);
    // A licence issued after signs with the new key, which the public endpoint now serves first.
    const after = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const fresh = await validate((await licenceOf(after)).key, 'desk-top-0002');
    expect(fresh.keyId).toBe(k2.keyId);
    expect(verifies(fresh, k2.publicKeyPem)).toBe(true);
    const published = await t.call(licencesRoutes.vendorLicencePublicKey, {
      params: { vendorUrl: vendor.vendorUrl },
    });
    expect(published.json()).toMatchObject({
      keyId: k2.keyId,
      retiredKeys: [expect.objectContaining({ keyId: k1.keyId, publicKeyPem: k1.publicKeyPem })],
    });

    // A second rotation pins the licence issued in between to the second key.
    await t.call(vr.rotateLicenceKey, { token });
    expect((await validate((await licenceOf(after)).key, 'desk-top-0002')).keyId).toBe(k2.keyId);
    expect((await validate(oldKey, 'desk-top-0001')).keyId).toBe(k1.keyId);
    // Another vendor's key never changed.
    const theirs = await t.call(vr.rotateLicenceKey, { token: other.token });
    expect(theirs.json().keys.map((k: SigningKey) => k.keyId)).not.toContain(k1.keyId);
  });
});

describe('builds', () => {
  it('publishes a build buyers download under its name; refuses wrong types, bad names and versions', async () => {
    const app = await newApp();
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, app.priceId);
    const licence = await licenceOf(buyer);
    expect(licence.build).toBeNull();
    const res = await uploadBuild(app.id, { name: 'Grid Bot 1.2.0.zip', data: zipWithEntry });
    expect(res.statusCode, res.body).toBe(201);
    const policy = res.json().policy as VendorLicencePolicy;
    expect(policy.app.build).toMatchObject({
      version: '1.2.0',
      fileName: 'Grid Bot 1.2.0.zip',
      sizeBytes: zipWithEntry.length,
    });
    const link = await t.call(licencesRoutes.licenceDownload, {
      token: buyer.token,
      params: { id: licence.id },
    });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject(link.json().url as string);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(zipWithEntry)).toBe(true);
    expect(file.headers['content-disposition']).toContain('Grid Bot 1.2.0.zip');

    const pdf = Buffer.from('%PDF-1.7\n%…');
    expect((await uploadBuild(app.id, { name: 'app.zip', data: pdf }, '1.3.0')).statusCode).toBe(
      415,
    );
    expect((await uploadBuild(app.id, { name: '../app.zip', data: zip }, '1.3.0')).statusCode).toBe(
      400,
    );
    // A version number is used once (builds are deliverables, ADR 053).
    expect((await uploadBuild(app.id, { name: 'app.zip', data: zipWithEntry })).statusCode).toBe(
      409,
    );
    expect(
      (await uploadBuild(app.id, { name: 'app.zip', data: zip }, '1.0 final')).statusCode,
    ).toBe(400);
    const after = await policyOf(
      await t.call(vr.vendorLicencePolicy, { token, params: { productId: app.id } }),
    );
    expect(after.builds).toHaveLength(1);
  });

  it('streams a build to storage, and refuses one past the vendor’s storage budget (issue 26)', async () => {
    const small = await startTestApp({ VENDOR_STORAGE_MB: '1' });
    try {
      const pieces: number[] = [];
      const real = small.deps.storage;
      small.deps.storage = Object.assign(Object.create(real) as Storage, {
        putStream(key: string, body: AsyncIterable<Buffer>, type: string) {
          async function* tap() {
            for await (const chunk of body) {
              pieces.push(chunk.length);
              yield chunk;
            }
          }
          return real.putStream(key, tap(), type);
        },
      });
      const seller = await createVendor(small);
      const as = await vendorToken(small, seller);
      const app = await createProduct(small, seller.id, { kind: 'app' });
      let n = 0;
      const build = (size: number) =>
        makeZip([{ name: `bot-${++n}.exe`, data: Buffer.alloc(size - 100, 3) }]);
      const send = (data: Buffer, version: string) => {
        const { body, contentType } = multipartBody([
          { name: 'file', filename: 'bot.zip', type: 'application/zip', data },
        ]);
        return small.app.inject({
          method: 'POST',
          url: `/api/v1/vendor/licences/${app.id}/builds?version=${version}`,
          payload: body,
          headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
        });
      };
      const first = build(700 * 1024);
      expect((await send(first, '1.0.0')).statusCode).toBe(201);
      expect(pieces.reduce((a, b) => a + b, 0)).toBe(first.length);
      const rows = () =>
        small.database.db.execute<{ sha256: string; storage_key: string }>(
          sql`select sha256, storage_key from deliverable_versions where product_id = ${app.id}`,
        );
      expect((await rows()).rows[0]!.sha256).toBe(createHash('sha256').update(first).digest('hex'));
      const over = await send(build(700 * 1024), '1.0.1');
      expect(over.statusCode).toBe(413);
      expect(over.json().error).toMatch(/1 MB storage budget/);
      expect((await rows()).rows).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});
