import { createPublicKey } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  LICENCE_RESETS_MAX,
  licenceMessages,
  licencesRoutes,
  normaliseLicenceKey,
  ordersRoutes,
  type Licence,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  atStripe,
  type Buyer,
  buyPaidProduct,
  createBuyer,
  purchaseEvents,
  sandboxPost,
} from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { verifies } from '../../../test/licences.ts';
import { buildApp } from '../../app.ts';
import { subscribers } from '../../events/subscribers.ts';
import { DEMO_BUILD, storeDemoBuild } from './seed.ts';

// Licences end to end through the API: bought through the sandbox's checkout, listed on the apps
// page, activated, validated (signature checked with the published key) and deactivated by the
// vendor's app, reset by the buyer, and kept in step with the purchase by orders' events.

const t = useTestApp();
let vendor: Awaited<ReturnType<typeof createVendor>>;
let app: Awaited<ReturnType<typeof createProduct>>;
let subscriptionApp: Awaited<ReturnType<typeof createProduct>>;

beforeAll(async () => {
  vendor = await createVendor(t, { vendorUrl: 'licence-vendor', displayName: 'Licence Labs' });
  app = await createProduct(t, vendor.id, { kind: 'app', title: 'Grid Bot', amount: 5_000 });
  subscriptionApp = await createProduct(t, vendor.id, {
    kind: 'app',
    title: 'Edge Journal',
    amount: 20_000,
    extraPrices: [1_500],
  });
  // Grid Bot: two MetaTrader accounts per licence; Edge Journal keeps the defaults.
  await t.database.db
    .execute(sql`insert into licence_products (product_id, max_activations, binding)
    values (${app.id}, 2, 'metatrader_account')`);
});

async function buy(product: { priceId: string }, scheme?: string) {
  const bought = await buyPaidProduct(t, vendor.vendorUrl, product.priceId, scheme);
  return { ...bought, sandboxId: bought.sessionId };
}

async function licencesOf(buyer: { token: string }): Promise<Licence[]> {
  const res = await t.call(licencesRoutes.licences, { token: buyer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().licences;
}

async function onlyLicence(buyer: { token: string }): Promise<Licence> {
  const list = await licencesOf(buyer);
  expect(list).toHaveLength(1);
  return list[0]!;
}

let fingerprints = 0;
const account = () => String(70_000_000 + ++fingerprints);

const activate = (key: string, fingerprint = account(), extra: Record<string, string> = {}) =>
  t.call(licencesRoutes.activateLicence, {
    body: {
      key,
      fingerprint,
      name: `Account ${fingerprint}`,
      binding: 'metatrader_account',
      ...extra,
    },
  });
const validate = (key: string, fingerprint: string, nonce?: string) =>
  t.call(licencesRoutes.validateLicence, {
    body: { key, fingerprint, ...(nonce ? { nonce } : {}) },
  });
/** The buyer's "new key" for a licence. */
const resetKey = (token: string, id: string) =>
  t.call(licencesRoutes.resetLicenceKey, { token, params: { id } });
const deactivate = (key: string, fingerprint: string) =>
  t.call(licencesRoutes.deactivateLicence, { body: { key, fingerprint } });

async function publicKeyPem(vendorUrl = vendor.vendorUrl) {
  const res = await t.call(licencesRoutes.vendorLicencePublicKey, { params: { vendorUrl } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { publicKeyPem: string; publicKeyRaw: string; keyId: string };
}

/** A well-formed key that was never issued. */
const unknownKey = () =>
  `TS-${Array.from({ length: 4 }, () =>
    Array.from(
      { length: 5 },
      () => 'ABCDEFGHJKMNPQRSTVWXYZ0123456789'[Math.floor(Math.random() * 32)],
    ).join(''),
  ).join('-')}`;

describe('issuing', () => {
  it('issues a licence when an app is paid for: key, terms, app and history on the apps page', async () => {
    const buyer = await buy(app);
    const licence = await onlyLicence(buyer);
    expect(licence.key).toMatch(/^TS(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
    expect(licence).toMatchObject({
      status: 'active',
      message: 'Active.',
      expiresAt: null,
      purchaseId: buyer.purchaseId,
      product: { id: app.id, title: 'Grid Bot' },
      vendor: { vendorUrl: 'licence-vendor', displayName: 'Licence Labs' },
      binding: 'metatrader_account',
      maxActivations: 2,
      activations: [],
      resetsLeft: LICENCE_RESETS_MAX,
      build: null,
    });
    expect(licence.history).toEqual([
      expect.objectContaining({ type: 'issued', detail: 'Issued with the purchase.' }),
    ]);
    // Only a hash and the sealed key are stored.
    const stored = await t.database.db.execute<Record<string, string>>(
      sql`select key_hash, key_sealed from licences where id = ${licence.id}`,
    );
    expect(JSON.stringify(stored.rows)).not.toContain(normaliseLicenceKey(licence.key));
  });

  it('issues nothing for other kinds of product, nor for the platform’s plans', async () => {
    const indicator = await createProduct(t, vendor.id, { kind: 'indicator' });
    expect(await licencesOf(await buy(indicator))).toEqual([]);

    const platform = await createVendor(t, { vendorUrl: 'tradeshelf' });
    const plan = await createProduct(t, platform.id, { kind: 'app', title: 'Premium' });
    const buyer = await buyPaidProduct(t, 'tradeshelf', plan.priceId);
    expect(await licencesOf(buyer)).toEqual([]);
  });

  it('changes nothing when the events are handed over again, twice and in reverse order', async () => {
    const buyer = await buy(app);
    expect((await sandboxPost(t, `/sandbox/payments/${buyer.sandboxId}/refund`)).statusCode).toBe(
      303,
    );
    const before = await licencesOf(buyer);
    expect(before[0]!.status).toBe('revoked');
    const events = await purchaseEvents(t, buyer.purchaseId);
    expect(events.map((e) => e.type)).toEqual(['purchase.paid', 'purchase.refunded']);
    const all = subscribers(() => t.deps).filter((s) => s.name === 'licences.issue');
    for (const event of [...events, ...[...events].reverse(), ...events])
      for (const s of all) await t.database.db.transaction((tx) => s.handle(tx, event));
    expect(await licencesOf(buyer)).toEqual(before);
  });
});

describe('the buyer’s apps page', () => {
  it('answers 404 for another buyer’s licence and activation ids', async () => {
    const owner = await buy(app);
    const licence = await onlyLicence(owner);
    const fp = account();
    expect((await activate(licence.key, fp)).statusCode).toBe(200);
    const activationId = (await onlyLicence(owner)).activations[0]!.id;
    const other = await createBuyer(t);
    expect(await licencesOf(other)).toEqual([]);
    for (const res of [
      await t.call(licencesRoutes.deactivateLicenceActivation, {
        token: other.token,
        params: { id: licence.id, activationId },
      }),
      await resetKey(other.token, licence.id),
      await t.call(licencesRoutes.licenceDownload, {
        token: other.token,
        params: { id: licence.id },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: licenceMessages.notFound, code: 'not_found' });
    }
    // Unknown ids answer the same; nothing of the owner's changed.
    const unknown = await resetKey(other.token, 'lic_nope');
    expect(unknown.json()).toEqual({ error: licenceMessages.notFound, code: 'not_found' });
    expect((await onlyLicence(owner)).activations).toHaveLength(1);
    expect((await onlyLicence(owner)).key).toBe(licence.key);
    const noToken = await t.call(licencesRoutes.licences);
    expect(noToken.statusCode).toBe(401);
  });

  it('deactivates a device, freeing its slot', async () => {
    const buyer = await buy(app);
    const { key, id } = await onlyLicence(buyer);
    const [a, b] = [account(), account()];
    expect((await activate(key, a)).statusCode).toBe(200);
    expect((await activate(key, b)).statusCode).toBe(200);
    expect((await activate(key)).statusCode).toBe(422);
    const activation = (await onlyLicence(buyer)).activations.find((x) => x.fingerprint === a)!;
    const res = await t.call(licencesRoutes.deactivateLicenceActivation, {
      token: buyer.token,
      params: { id, activationId: activation.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().licence.activations.map((x: { fingerprint: string }) => x.fingerprint),
    ).toEqual([b]);
    expect(res.json().licence.history[0]).toMatchObject({ type: 'deactivated' });
    // Once more: it is gone.
    const again = await t.call(licencesRoutes.deactivateLicenceActivation, {
      token: buyer.token,
      params: { id, activationId: activation.id },
    });
    expect(again.statusCode).toBe(404);
    // The freed slot takes another device; the deactivated one validates as not activated.
    expect((await activate(key)).statusCode).toBe(200);
    expect((await validate(key, a)).json()).toMatchObject({
      valid: false,
      device: { activated: false },
    });
  });

  it('resets a key: the new one works, the old one answers like a key that never existed, limited', async () => {
    const buyer = await buy(app);
    const first = await onlyLicence(buyer);
    const fp = account();
    expect((await activate(first.key, fp)).statusCode).toBe(200);

    const res = await resetKey(buyer.token, first.id);
    expect(res.statusCode, res.body).toBe(200);
    const reset: Licence = res.json().licence;
    expect(reset.key).not.toBe(first.key);
    expect(reset.activations).toEqual([]);
    expect(reset.resetsLeft).toBe(LICENCE_RESETS_MAX - 1);
    expect(reset.history[0]).toMatchObject({ type: 'reset' });
    expect(JSON.stringify(reset.history)).not.toContain(normaliseLicenceKey(first.key));

    const oldKey = await validate(first.key, fp);
    const neverIssued = await validate(unknownKey(), fp);
    expect(oldKey.statusCode).toBe(404);
    expect(neverIssued.statusCode).toBe(404);
    expect(oldKey.json()).toEqual(neverIssued.json());
    expect(oldKey.json()).toEqual({ error: licenceMessages.keyInvalid, code: 'licence_invalid' });
    expect((await activate(first.key, fp)).json()).toEqual(neverIssued.json());
    expect((await deactivate(first.key, fp)).json()).toEqual(neverIssued.json());

    expect((await activate(reset.key, fp)).statusCode).toBe(200);
    expect((await validate(reset.key, fp)).json()).toMatchObject({ valid: true });

    for (let i = 1; i < LICENCE_RESETS_MAX; i++) {
      const more = await resetKey(buyer.token, first.id);
      expect(more.statusCode).toBe(200);
    }
    const refused = await resetKey(buyer.token, first.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: licenceMessages.resetsUsed, code: 'business_rule' });
    expect((await onlyLicence(buyer)).resetsLeft).toBe(0);
  });

  it('links the current build for download, as the file the vendor published', async () => {
    const buyer = await buy(app);
    const { id } = await onlyLicence(buyer);
    const missing = await t.call(licencesRoutes.licenceDownload, {
      token: buyer.token,
      params: { id },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(licenceMessages.noBuild);

    await storeDemoBuild(t.deps.storage);
    // A build is a published, current deliverable (ADR 053).
    await t.database.db.execute(sql`insert into deliverable_versions (id, product_id, platform,
        version, file_name, storage_key, size_bytes, sha256, published_at, is_current)
      values ('bld_test', ${app.id}, 'windows', '2.1.0', ${DEMO_BUILD.fileName},
        ${DEMO_BUILD.storageKey}, 1, 'x', now(), true)`);
    const res = await t.call(licencesRoutes.licenceDownload, {
      token: buyer.token,
      params: { id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().build).toMatchObject({ version: '2.1.0', fileName: DEMO_BUILD.fileName });
    const file = await t.app.inject({ method: 'GET', url: res.json().url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await onlyLicence(buyer)).build).toMatchObject({ version: '2.1.0' });
  });
});

describe('the public licence API', () => {
  it('activates up to the maximum, then refuses with a clear message; the same device is idempotent', async () => {
    const buyer = await buy(app);
    const { key } = await onlyLicence(buyer);
    const [a, b] = [account(), account()];
    const first = await activate(key, a);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      created: true,
      activation: { fingerprint: a, binding: 'metatrader_account', name: `Account ${a}` },
      licence: { status: 'active', maxActivations: 2, activationsUsed: 1, product: { id: app.id } },
    });
    const again = await activate(key.toLowerCase().replace(/-/g, ' '), a);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      created: false,
      activation: { id: first.json().activation.id },
      licence: { activationsUsed: 1 },
    });
    expect((await activate(key, b)).json().licence.activationsUsed).toBe(2);

    const refused = await activate(key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      error: licenceMessages.limitReached(2),
      code: 'activation_limit',
    });
    const licence = await onlyLicence(buyer);
    expect(licence.activations.map((x) => x.fingerprint)).toEqual([a, b]);
    expect(licence.history.filter((e) => e.type === 'activated')).toHaveLength(2);
  });

  it('checks the binding and its format, and never echoes the key', async () => {
    const buyer = await buy(app);
    const { key } = await onlyLicence(buyer);
    const letters = await activate(key, 'ACC-12');
    expect(letters.statusCode).toBe(400);
    expect(letters.json().fields.fingerprint).toMatch(/MetaTrader account number/);
    const wrongPreset = await activate(key, 'a'.repeat(32), { binding: 'device' });
    expect(wrongPreset.statusCode).toBe(422);
    expect(wrongPreset.json().error).toBe('This app activates per MetaTrader account.');
    const malformed = await t.call(licencesRoutes.validateLicence, {
      body: { key: `${key}U`, fingerprint: '12345678' },
    });
    expect(malformed.statusCode).toBe(400);
    for (const res of [letters, wrongPreset, malformed]) {
      expect(res.body).not.toContain(normaliseLicenceKey(key)!.slice(0, 5));
      expect(res.body).not.toContain(key);
    }
  });

  it('validates with an Ed25519 signature that verifies with the published key and breaks when a field changes', async () => {
    const buyer = await buy(app);
    const { key, id } = await onlyLicence(buyer);
    const fp = account();
    expect((await activate(key, fp)).statusCode).toBe(200);
    const res = await validate(key, fp, 'nonce-123');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({
      valid: true,
      status: 'active',
      expiresAt: null,
      licenceId: id,
      product: { id: app.id, title: 'Grid Bot' },
      vendor: { vendorUrl: 'licence-vendor' },
      device: { fingerprint: fp, activated: true, binding: 'metatrader_account' },
      nonce: 'nonce-123',
      algorithm: 'Ed25519',
    });
    const grace = Date.parse(answer.validUntil) - Date.parse(answer.issuedAt);
    expect(grace).toBe(72 * 3_600_000);

    const published = await publicKeyPem();
    expect(published.keyId).toBe(answer.keyId);
    expect(verifies(answer, published.publicKeyPem)).toBe(true);
    // The raw 32 bytes verify too (what libsodium-style clients embed).
    const raw = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(published.publicKeyRaw, 'base64').toString('base64url'),
      },
      format: 'jwk',
    });
    expect(verifies(answer, raw.export({ format: 'pem', type: 'spki' }).toString())).toBe(true);
    for (const altered of [
      { ...answer, valid: false },
      { ...answer, validUntil: '2099-01-01T00:00:00.000Z' },
      { ...answer, device: { ...answer.device, fingerprint: '99999999' } },
      { ...answer, nonce: 'nonce-124' },
    ])
      expect(verifies(altered, published.publicKeyPem)).toBe(false);
    // Another vendor's key does not verify it.
    const other = await createVendor(t);
    expect(verifies(answer, (await publicKeyPem(other.vendorUrl)).publicKeyPem)).toBe(false);

    // A device that is not activated gets a signed answer that says so.
    const stranger = (await validate(key, account())).json();
    expect(stranger).toMatchObject({
      valid: false,
      status: 'active',
      device: { activated: false },
    });
    expect(verifies(stranger, published.publicKeyPem)).toBe(true);

    const unknownVendor = await t.call(licencesRoutes.vendorLicencePublicKey, {
      params: { vendorUrl: 'no-such-vendor' },
    });
    expect(unknownVendor.statusCode).toBe(404);
  });

  it('deactivates this device, idempotently', async () => {
    const buyer = await buy(app);
    const { key } = await onlyLicence(buyer);
    const fp = account();
    expect((await activate(key, fp)).statusCode).toBe(200);
    const res = await deactivate(key, fp);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ deactivated: true, licence: { activationsUsed: 0 } });
    expect((await deactivate(key, fp)).json()).toMatchObject({ deactivated: false });
    expect((await validate(key, fp)).json()).toMatchObject({ valid: false });
    expect((await onlyLicence(buyer)).history[0]).toMatchObject({ type: 'deactivated' });
  });

  it('answers a wrong key exactly as an unknown one', async () => {
    const buyer = await buy(app);
    const { key } = await onlyLicence(buyer);
    // One character off (a typo), and a key never issued.
    const last = key.at(-1) === 'Z' ? 'Y' : 'Z';
    const typo = `${key.slice(0, -1)}${last}`;
    const answers = await Promise.all([
      validate(typo, '12345678'),
      validate(unknownKey(), '12345678'),
      activate(typo, '12345678'),
      activate(unknownKey(), '12345678'),
      deactivate(typo, '12345678'),
      deactivate(unknownKey(), '12345678'),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: licenceMessages.keyInvalid, code: 'licence_invalid' });
      expect(res.headers['content-length']).toBe(answers[0]!.headers['content-length']);
    }
  });

  it('limits calls per key with 429 and Retry-After, whichever address they come from', async () => {
    const buyer = await buy(app);
    const { key } = await onlyLicence(buyer);
    const fp = account();
    expect((await activate(key, fp)).statusCode).toBe(200);
    // The activation counted too: every call with the key does.
    const limit = t.config.LICENCE_KEY_LIMIT_PER_MINUTE;
    let last = await validate(key, fp);
    for (let i = 2; i < limit && last.statusCode === 200; i++) last = await validate(key, fp);
    expect(last.statusCode).toBe(200);
    const limited = await validate(key, fp);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe('rate_limited');
    expect(limited.body).not.toContain(key);
  });

  it('limits calls per address', async () => {
    const ip = '198.51.100.7';
    const limit = t.config.LICENCE_IP_LIMIT_PER_MINUTE;
    const answers = await Promise.all(
      Array.from({ length: limit + 1 }, () =>
        t.app.inject({
          method: 'POST',
          url: licencesRoutes.validateLicence.path,
          payload: { key: unknownKey(), fingerprint: '12345678' },
          remoteAddress: ip,
        }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 404)).toHaveLength(limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(1);
  });

  it('gives the last free slot to exactly one of two devices activating at the same moment', async () => {
    for (let round = 0; round < 3; round++) {
      const buyer = await buy(app);
      const { key } = await onlyLicence(buyer);
      expect((await activate(key)).statusCode).toBe(200);
      const raced = await Promise.all([activate(key), activate(key)]);
      expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      expect((await onlyLicence(buyer)).activations).toHaveLength(2);
    }
  });
});

describe('expiry follows the purchase', () => {
  async function portal(buyer: Buyer & { purchaseId: string }, action: 'cancel' | 'resume') {
    const res = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(res.statusCode).toBe(200);
    const path = new URL(res.json().session.url).pathname;
    const { subscriptionId } = await atStripe(t, buyer.purchaseId);
    expect((await sandboxPost(t, `${path}/${subscriptionId}/${action}`)).statusCode).toBe(303);
  }
  const periodEnd = async (purchaseId: string) =>
    new Date(
      (
        await t.database.db.execute<{ current_period_end: string }>(
          sql`select current_period_end from purchases where id = ${purchaseId}`,
        )
      ).rows[0]!.current_period_end,
    ).toISOString();

  it('dates the licence when the subscription is cancelled, extends it on renewal, clears it on resume, expires it at the end', async () => {
    const buyer = await buy(subscriptionApp, 'month');
    const { key } = await onlyLicence(buyer);
    const fp = 'workstation-7f3a9c';
    const added = await activate(key, fp, { binding: 'device' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await validate(key, fp)).json()).toMatchObject({ valid: true, expiresAt: null });

    await portal(buyer, 'cancel');
    const end = await periodEnd(buyer.purchaseId);
    let licence = await onlyLicence(buyer);
    expect(licence).toMatchObject({ status: 'active', expiresAt: end });
    expect(licence.message).toBe(`Active until ${end.slice(0, 10)}.`);
    const dated = (await validate(key, fp)).json();
    expect(dated).toMatchObject({ valid: true, expiresAt: end });
    // The offline grace never outlasts the licence.
    expect(Date.parse(dated.validUntil)).toBeLessThanOrEqual(Date.parse(end));

    // A renewal while cancelling moves the end to the new period's.
    await sandboxPost(t, `/sandbox/payments/${buyer.sandboxId}/renew`);
    const renewedEnd = await periodEnd(buyer.purchaseId);
    expect(Date.parse(renewedEnd)).toBeGreaterThan(Date.parse(end));
    expect((await onlyLicence(buyer)).expiresAt).toBe(renewedEnd);

    await portal(buyer, 'resume');
    licence = await onlyLicence(buyer);
    expect(licence.expiresAt).toBeNull();
    expect(licence.history.map((e) => e.type).slice(0, 3)).toEqual([
      'expiry_changed',
      'expiry_changed',
      'expiry_changed',
    ]);

    // Time passing past a dated end reads as expired, before any event says so.
    await portal(buyer, 'cancel');
    await t.database.db.execute(sql`update licences set expires_at = now() - interval '1 minute'
      where purchase_id = ${buyer.purchaseId}`);
    expect((await validate(key, fp)).json()).toMatchObject({ valid: false, status: 'expired' });
    expect((await activate(key, 'laptop-0000001', { binding: 'device' })).json()).toEqual({
      error: licenceMessages.expired,
      code: 'licence_inactive',
    });

    await sandboxPost(t, `/sandbox/payments/${buyer.sandboxId}/end`);
    licence = await onlyLicence(buyer);
    expect(licence).toMatchObject({
      status: 'expired',
      message: 'Expired: the subscription ended.',
    });
    expect(licence.history[0]).toMatchObject({ type: 'expired' });
    const download = await t.call(licencesRoutes.licenceDownload, {
      token: buyer.token,
      params: { id: licence.id },
    });
    expect(download.statusCode).toBe(422);
  });

  it('revokes the licence on a full refund and on a dispute; validation says so, signed', async () => {
    const refunded = await buy(app);
    const { key } = await onlyLicence(refunded);
    const fp = account();
    expect((await activate(key, fp)).statusCode).toBe(200);
    // Half a refund keeps access.
    await sandboxPost(t, `/sandbox/payments/${refunded.sandboxId}/refund_half`);
    expect((await validate(key, fp)).json()).toMatchObject({ valid: true, status: 'active' });
    await sandboxPost(t, `/sandbox/payments/${refunded.sandboxId}/refund`);
    const answer = (await validate(key, fp)).json();
    expect(answer).toMatchObject({ valid: false, status: 'revoked' });
    expect(verifies(answer, (await publicKeyPem()).publicKeyPem)).toBe(true);
    expect(await onlyLicence(refunded)).toMatchObject({
      status: 'revoked',
      message: 'Revoked: the purchase was refunded.',
    });
    expect((await activate(key)).json()).toEqual({
      error: licenceMessages.revoked,
      code: 'licence_inactive',
    });
    const reset = await resetKey(refunded.token, answer.licenceId);
    expect(reset.statusCode).toBe(422);

    const disputed = await buy(app);
    await sandboxPost(t, `/sandbox/payments/${disputed.sandboxId}/dispute`);
    expect(await onlyLicence(disputed)).toMatchObject({
      status: 'revoked',
      message: 'Revoked: the payment was disputed.',
    });
  });
});

describe('privacy', () => {
  it('never writes a key into the request log, whatever the answer', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await buildApp(t.deps, { logger: pino({ level: 'trace' }, sink) });
    try {
      const buyer = await buy(app);
      const { key } = await onlyLicence(buyer);
      const fp = account();
      for (const body of [
        { key, fingerprint: fp, name: 'Desk', binding: 'metatrader_account' },
        { key, fingerprint: 'not digits', name: 'Desk', binding: 'metatrader_account' },
        { key: `${key}U`, fingerprint: fp, name: 'Desk', binding: 'metatrader_account' },
      ])
        await logged.inject({
          method: 'POST',
          url: licencesRoutes.activateLicence.path,
          payload: body,
        });
      await logged.inject({
        method: 'POST',
        url: licencesRoutes.validateLicence.path,
        payload: { key, fingerprint: fp },
      });
      expect(lines.length).toBeGreaterThan(0);
      const all = lines.join('\n');
      expect(all).not.toContain(key);
      expect(all).not.toContain(normaliseLicenceKey(key));
    } finally {
      await logged.close();
    }
  });
});
