import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  catalogRoutes,
  deliverableMessages as m,
  deliverablesRoutes as r,
  ordersRoutes,
  type OwnedDelivery,
  type VendorDelivery,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, type Vendor } from '../../../test/factories/catalog.ts';
import { vendorAndForeignProduct } from '../../../test/factories/vendors.ts';
import {
  buyPaidProduct,
  createBuyer,
  sandboxPaymentAction,
} from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/http.ts';
import { makeZip } from '../../../test/zip.ts';
import { signDownload } from './tokens.ts';

// Deliverables through HTTP on a real database (issue 29, ADR 053): vendors upload checked files and
// publish versions; owners download them through signed links while their purchase lasts, within
// the updates it promises; archives carry the buyer's purchase id; new versions e-mail owners.

const t = useTestApp();
let vendor: Vendor;
let token: string;
/** Another vendor, and a product of theirs that the vendor's routes must not reach. */
let other: { token: string; productId: string };

beforeAll(async () => {
  ({ vendor, token, other } = await vendorAndForeignProduct(t));
});

const newProduct = (title = 'Session Box Indicator') =>
  createProduct(t, vendor.id, { title, platforms: ['mt5'], amount: 3_900 });

function upload(
  productId: string,
  file: { name: string; data: Buffer },
  query: { platform: string; version: string },
  as = token,
) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: file.name, type: 'application/octet-stream', data: file.data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/products/${productId}/versions?platform=${query.platform}&version=${encodeURIComponent(query.version)}`,
    payload: body,
    headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
  });
}

async function uploaded(
  productId: string,
  file: { name: string; data: Buffer },
  query: { platform: string; version: string },
) {
  const res = await upload(productId, file, query);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { delivery: VendorDelivery; versionId: string };
}

async function publish(productId: string, versionId: string, notes = 'First release.') {
  const res = await t.call(r.publishDeliverable, {
    token,
    params: { productId, versionId },
    body: { notes },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { delivery: VendorDelivery };
}

/** A new product with one MT5 file published as `version`: the product and the version's id. */
async function publishedEx5(title: string, version = '1') {
  const p = await newProduct(title);
  const { versionId } = await uploaded(
    p.id,
    { name: 'a.ex5', data: ex5 },
    { platform: 'mt5', version },
  );
  await publish(p.id, versionId);
  return { p, versionId };
}

async function owned(buyer: { token: string }, productId: string) {
  const res = await t.call(r.ownedDelivery, { token: buyer.token, params: { productId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().delivery as OwnedDelivery;
}

const linkFor = (buyer: { token: string }, productId: string, versionId: string) =>
  t.call(r.downloadLink, { token: buyer.token, params: { productId, versionId } });

/** The vendor's files in storage for a product (what a refused upload must not leave). */
const storedFiles = (productId: string) => {
  const dir = path.join(t.config.DATA_DIR, 'files', 'deliverables', productId);
  return existsSync(dir) ? readdirSync(dir) : [];
};

const vendorEntries = [
  { name: 'MQL5/Indicators/SessionBox.ex5', data: Buffer.from([0, 1, 2, 3, 0, 9, 8, 7]) },
  {
    name: 'MQL5/Presets/SessionBox.set',
    data: Buffer.from('InpSessions=3\r\nInpColour=clrGold\r\n'.repeat(40)),
    deflate: true,
  },
  { name: 'README.txt', data: Buffer.from('Copy the MQL5 folder into your data folder.\n') },
];
const archive = makeZip(vendorEntries);
/** What a stand-in .ex5 looks like: binary, none of the known signatures. */
const ex5 = Buffer.concat([Buffer.from([0x45, 0x58, 0x35, 0, 0, 1]), Buffer.alloc(200, 7)]);

describe('vendor uploads', () => {
  it('refuses a product of another vendor (404) and a buyer (403), before reading the file', async () => {
    const res = await upload(
      other.productId,
      { name: 'a.zip', data: archive },
      { platform: 'mt5', version: '1.0' },
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(m.productNotFound);
    expect(storedFiles(other.productId)).toEqual([]);
    const buyer = await createBuyer(t);
    const asBuyer = await upload(
      other.productId,
      { name: 'a.zip', data: archive },
      { platform: 'mt5', version: '1.0' },
      buyer.token,
    );
    expect(asBuyer.statusCode).toBe(403);
    for (const route of [r.vendorDelivery, r.deleteDeliverableDraft, r.makeDeliverableCurrent]) {
      const res = await t.call(route, {
        token,
        params: { productId: other.productId, versionId: 'dlv_x' },
      });
      expect(res.statusCode, route.path).toBe(404);
    }
  });

  it('checks each file by its name and bytes, and refuses unsafe archives keeping nothing', async () => {
    const p = await newProduct('Checked Files');
    const refused = async (
      file: { name: string; data: Buffer },
      platform: string,
      status: number,
    ) => {
      const res = await upload(p.id, file, { platform, version: `9.${Math.random()}`.slice(0, 8) });
      expect(res.statusCode, `${file.name} on ${platform}: ${res.body}`).toBe(status);
      return res.json();
    };
    // Names the platform does not take, bytes that disagree with the name, markup in disguise.
    await refused({ name: 'manual.pdf', data: Buffer.from('%PDF-1.7\n') }, 'mt5', 415);
    await refused({ name: 'bot.zip', data: Buffer.from('%PDF-1.7\n') }, 'mt5', 415);
    await refused({ name: 'bot.ex5', data: Buffer.from('<html><script>x()</script>') }, 'mt5', 415);
    await refused({ name: 'bot.ex5', data: archive }, 'mt5', 415);
    await refused({ name: 'preset.set', data: ex5 }, 'mt5', 415);
    await refused(
      { name: 'setup.exe', data: Buffer.from('#!/bin/sh\nrm -rf /\n') },
      'windows',
      415,
    );
    await refused({ name: 'notes.txt', data: Buffer.from('<!DOCTYPE html><p>hi') }, 'any', 415);
    await refused({ name: 'study.ts', data: Buffer.from('x') }, 'thinkorswim', 400);
    // A name with a NUL byte, or a path.
    await refused({ name: 'bot\u0000.ex5', data: ex5 }, 'mt5', 400);
    await refused({ name: '../bot.ex5', data: ex5 }, 'mt5', 400);
    // Archives: parent paths, absolute paths, backslashes, control characters, a bomb.
    const data = Buffer.from('x');
    for (const name of [
      '../evil.ex5',
      'MQL5/../../evil',
      '/etc/passwd',
      'C:/x.dll',
      'a\\..\\b',
      'a\u0001b',
    ])
      expect(
        (await refused({ name: 'bad.zip', data: makeZip([{ name, data }]) }, 'mt5', 422)).error,
      ).toBe(m.archiveUnsafe);
    const nul = makeZip([{ name: Buffer.from('a\u0000b.txt', 'latin1'), data }]);
    await refused({ name: 'nul.zip', data: nul }, 'mt5', 422);
    const bomb = makeZip([
      { name: 'zeros.bin', data: Buffer.alloc(30 * 1024 * 1024), deflate: true },
    ]);
    expect(bomb.length).toBeLessThan(100_000);
    expect((await refused({ name: 'bomb.zip', data: bomb }, 'mt5', 422)).error).toBe(
      m.archiveUnsafe,
    );
    // A header that lies about its size is judged by what it says: over 1 GB.
    const liar = makeZip([{ name: 'big.bin', data: Buffer.alloc(10), size: 0xfffffff0 }]);
    await refused({ name: 'liar.zip', data: liar }, 'mt5', 422);
    expect(storedFiles(p.id)).toEqual([]);
    const view = await t.call(r.vendorDelivery, { token, params: { productId: p.id } });
    expect(view.json().delivery.versions).toEqual([]);

    // What each platform takes.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('InpLots=0.10\r\nInpRisk=1\r\n', 'utf16le'),
    ]);
    await uploaded(
      p.id,
      { name: 'SessionBox.set', data: utf16 },
      { platform: 'mt5', version: '0.1' },
    );
    await uploaded(
      p.id,
      { name: 'SessionBox.ex5', data: ex5 },
      { platform: 'mt5', version: '0.2' },
    );
    await uploaded(
      p.id,
      { name: 'Box.algo', data: archive },
      { platform: 'ctrader', version: '1' },
    );
    await uploaded(
      p.id,
      { name: 'Manual.pdf', data: Buffer.from('%PDF-1.7\n%\xe2\xe3\n') },
      { platform: 'any', version: '1' },
    );
    await uploaded(
      p.id,
      { name: 'setup.exe', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]) },
      { platform: 'windows', version: '1' },
    );
    const again = await upload(
      p.id,
      { name: 'x.ex5', data: ex5 },
      { platform: 'mt5', version: '0.2' },
    );
    expect(again.statusCode).toBe(409);
    expect(storedFiles(p.id)).toHaveLength(5);
  });

  it('refuses a file declared larger than 200 MB at once (413)', async () => {
    const p = await newProduct('Too Large');
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'big.zip', type: 'application/zip', data: archive },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/vendor/products/${p.id}/versions?platform=mt5&version=1`,
      payload: body,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'content-length': String(201 * 1024 * 1024),
      },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(m.tooLarge);
  });

  it('thinkorswim takes a link, not a file; other platforms a file, not a link', async () => {
    const p = await newProduct('TOS Study');
    const link = await t.call(r.addDeliverableLink, {
      token,
      params: { productId: p.id },
      body: { platform: 'thinkorswim', version: '1.0', url: 'https://tos.mx/abc123' },
    });
    expect(link.statusCode, link.body).toBe(201);
    const wrong = await t.call(r.addDeliverableLink, {
      token,
      params: { productId: p.id },
      body: { platform: 'mt5', version: '1.0', url: 'https://tos.mx/abc123' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(m.fileOnly);
  });
});

describe('set-up guide pictures', () => {
  const picture = () =>
    sharp({ create: { width: 1600, height: 900, channels: 3, background: '#131722' } })
      .png()
      .toBuffer();
  const addPicture = (productId: string, data: Buffer, as = token) => {
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'settings.png', type: 'image/png', data },
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/vendor/products/${productId}/guide/images`,
      payload: body,
      headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
    });
  };

  it('a picture becomes Markdown the guide shows to owners; other pictures stay text', async () => {
    const p = await newProduct('Guide pictures');
    const added = await addPicture(p.id, await picture());
    expect(added.statusCode, added.body).toBe(201);
    const { url, width, height, markdown } = added.json();
    // Cleaned and bounded by the picture pipeline; the address is the product's own.
    expect([width, height]).toEqual([1200, 675]);
    expect(url).toContain(`/public/guides/${p.id}/`);
    expect(markdown).toBe(`![${m.guideImageAlt}](${url})`);
    expect((await t.app.inject(url)).statusCode).toBe(200);

    // Another product's picture and a third party's stay their alt text.
    const otherProduct = await newProduct('Other guide');
    const theirs = (await addPicture(otherProduct.id, await picture())).json().url as string;
    const guide = `## Install\n\n${markdown.replace(m.guideImageAlt, 'Inputs tab')}\n\n![tracker](https://evil.example/t.gif)\n\n![elsewhere](${theirs})`;
    const saved = await t.call(r.saveDeliverySettings, {
      token,
      params: { productId: p.id },
      body: { guide, updatePolicy: 'lifetime' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { versionId } = await uploaded(
      p.id,
      { name: 'a.ex5', data: ex5 },
      { platform: 'mt5', version: '1' },
    );
    await publish(p.id, versionId);
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const html = (await owned(buyer, p.id)).guide!.html;
    expect(html).toContain(`<img src="${url}" alt="Inputs tab"`);
    expect(html.match(/<img/g)).toHaveLength(1);
    expect(html).not.toContain('evil.example');
    expect(html).toContain('tracker');
    expect(html).toContain('elsewhere');
  });

  it('refuses another vendor, a buyer, a file that is not a picture, and a damaged one', async () => {
    const p = await newProduct('Guide refusals');
    const png = await picture();
    expect((await addPicture(other.productId, png)).statusCode).toBe(404);
    const buyer = await createBuyer(t);
    expect((await addPicture(p.id, png, buyer.token)).statusCode).toBe(403);
    const notPicture = await addPicture(p.id, ex5);
    expect(notPicture.statusCode).toBe(415);
    expect(notPicture.json().fields.file).toBeTruthy();
    const cut = await addPicture(p.id, png.subarray(0, png.length - 40));
    expect(cut.statusCode).toBe(400);
    expect(cut.json().code).toBe('validation_failed');
  });
});

describe('owners and downloads', () => {
  it('publishes, lists and downloads a traced archive whose vendor entries are unchanged', async () => {
    const p = await newProduct();
    const { versionId } = await uploaded(
      p.id,
      { name: 'SessionBox 2.4.zip', data: archive },
      { platform: 'mt5', version: '2.4' },
    );
    const published = await publish(p.id, versionId, 'Adds **London** session.');
    expect(published.delivery.versions[0]).toMatchObject({ version: '2.4', current: true });
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const delivery = await owned(buyer, p.id);
    expect(delivery).toMatchObject({
      ended: null,
      traceId: buyer.purchaseId,
      updates: { policy: 'lifetime' },
      platforms: [
        {
          platform: 'mt5',
          label: 'MetaTrader 5',
          current: {
            version: '2.4',
            fileName: 'SessionBox 2.4.zip',
            sizeBytes: archive.length,
            available: true,
          },
          earlier: [],
        },
      ],
    });
    expect(delivery.platforms[0]!.current.notesHtml).toContain('<strong>London</strong>');

    const link = await linkFor(buyer, p.id, versionId);
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().fileName).toBe('SessionBox 2.4.zip');
    const file = await t.app.inject(link.json().url as string);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-disposition']).toContain('SessionBox 2.4.zip');
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
    const dirOffset = archive.readUInt32LE(archive.length - 6);
    // The vendor's entries, byte for byte, before the added one.
    expect(file.rawPayload.subarray(0, dirOffset).equals(archive.subarray(0, dirOffset))).toBe(
      true,
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), 'traced-'));
    const zipPath = path.join(dir, 'download.zip');
    writeFileSync(zipPath, file.rawPayload);
    // An independent unzip: every CRC checks, every vendor entry is identical, the licence is added.
    execFileSync('unzip', ['-tq', zipPath]);
    const names = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).trim().split('\n');
    const licence = `LICENSE-${buyer.purchaseId}.txt`;
    expect(names).toEqual([...vendorEntries.map((e) => e.name), licence]);
    for (const e of vendorEntries)
      expect(execFileSync('unzip', ['-p', zipPath, e.name]).equals(e.data)).toBe(true);
    const text = execFileSync('unzip', ['-p', zipPath, licence], { encoding: 'utf8' });
    expect(text).toContain(`Purchase: ${buyer.purchaseId}`);
    expect(text).toContain('Session Box Indicator, version 2.4 for MetaTrader 5');

    // A broken download resumes: the same link serves the same bytes, a part of them from a byte
    // on (206), in pieces across the added entry; another validator gets the whole file again.
    const etag = file.headers.etag as string;
    expect(file.headers['accept-ranges']).toBe('bytes');
    const at = dirOffset - 10;
    const rest = await t.app.inject({
      url: link.json().url as string,
      headers: { range: `bytes=${at}-`, 'if-range': etag },
    });
    expect(rest.statusCode, rest.body).toBe(206);
    expect(rest.headers['content-range']).toBe(
      `bytes ${at}-${file.rawPayload.length - 1}/${file.rawPayload.length}`,
    );
    expect(
      Buffer.concat([file.rawPayload.subarray(0, at), rest.rawPayload]).equals(file.rawPayload),
    ).toBe(true);
    const middle = await t.app.inject({
      url: link.json().url as string,
      headers: { range: `bytes=${dirOffset + 5}-${dirOffset + 40}` },
    });
    expect(middle.statusCode).toBe(206);
    expect(middle.rawPayload.equals(file.rawPayload.subarray(dirOffset + 5, dirOffset + 41))).toBe(
      true,
    );
    const changed = await t.app.inject({
      url: link.json().url as string,
      headers: { range: `bytes=${at}-`, 'if-range': '"another"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(file.rawPayload)).toBe(true);
    const past = await t.app.inject({
      url: link.json().url as string,
      headers: { range: `bytes=${file.rawPayload.length}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.json().code).toBe('range_not_satisfiable');

    // The product page says what it delivers, from the data.
    const page = await t.call(catalogRoutes.productDetails, { query: { id: p.id } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().product.delivers).toEqual({
      files: [
        {
          platform: 'mt5',
          label: 'MetaTrader 5',
          version: '2.4',
          releasedAt: delivery.platforms[0]!.current.releasedAt,
        },
      ],
      guide: false,
      discordRoles: false,
      course: false,
      licence: false,
      tradingViewScript: false,
      alerts: null,
      updates: { policy: 'lifetime', label: 'Lifetime updates' },
    });

    // The vendor finds the sale by the trace id.
    const found = await t.call(ordersRoutes.vendorSales, {
      token,
      query: { q: buyer.purchaseId },
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().sales.map((s: { id: string }) => s.id)).toEqual([buyer.purchaseId]);

    const counted = await t.call(r.vendorDelivery, { token, params: { productId: p.id } });
    // Two whole downloads; the resumed parts and the refused range count nothing.
    expect(counted.json().delivery.versions[0].downloads).toBe(2);

    // Another buyer, and a stranger, find nothing.
    const stranger = await createBuyer(t);
    expect(
      (await t.call(r.ownedDelivery, { token: stranger.token, params: { productId: p.id } }))
        .statusCode,
    ).toBe(404);
    expect((await linkFor(stranger, p.id, versionId)).statusCode).toBe(404);
    const theirs = await buyPaidProduct(t, vendor.vendorUrl, (await newProduct('Other')).priceId);
    expect((await linkFor(theirs, p.id, versionId)).statusCode).toBe(404);
  });

  it('refuses a tampered or expired link (403, linkExpired)', async () => {
    const { p, versionId } = await publishedEx5('Links');
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const url = (await linkFor(buyer, p.id, versionId)).json().url as string;
    const ok = await t.app.inject(url);
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(ex5)).toBe(true);
    // A file that is not traced resumes from storage's own range.
    const part = await t.app.inject({
      url,
      headers: { range: 'bytes=2-5', 'if-range': ok.headers.etag as string },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(ex5.subarray(2, 6))).toBe(true);
    const tampered = url.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const refusedT = await t.app.inject(tampered);
    expect(refusedT.statusCode).toBe(403);
    expect(refusedT.json().error).toBe(m.linkExpired);
    // Someone else's user id under the same signature.
    const forged = url.replace(/u=[^&]+/, 'u=usr_x');
    expect((await t.app.inject(forged)).statusCode).toBe(403);
    const userId = (
      await t.database.db.execute<{ id: string }>(
        sql`select buyer_id as id from purchases where id = ${buyer.purchaseId}`,
      )
    ).rows[0]!.id;
    const expired = signDownload(t.config.STORAGE_SECRET, {
      versionId,
      userId,
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    const refusedE = await t.app.inject(`/api/v1/downloads/${versionId}?${expired}`);
    expect(refusedE.statusCode).toBe(403);
    expect(refusedE.json().error).toBe(m.linkExpired);
  });

  it('a whole refund or a revocation ends downloads with the reason, links already made too', async () => {
    const { p, versionId } = await publishedEx5('Ends');
    const refunded = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const early = (await linkFor(refunded, p.id, versionId)).json().url as string;
    await sandboxPaymentAction(t, refunded.purchaseId, 'refund');
    expect((await owned(refunded, p.id)).ended).toEqual({
      reason: 'refunded',
      message: m.ended.refunded,
    });
    const refusedLink = await linkFor(refunded, p.id, versionId);
    expect(refusedLink.statusCode).toBe(403);
    expect(refusedLink.json().error).toBe(m.ended.refunded);
    const refusedFile = await t.app.inject(early);
    expect(refusedFile.statusCode).toBe(403);
    expect(refusedFile.json().error).toBe(m.ended.refunded);

    const revoked = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const res = await t.call(ordersRoutes.vendorRevokeAccess, {
      token,
      params: { id: revoked.purchaseId },
      body: { reason: 'Shared the files in a group buy' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await linkFor(revoked, p.id, versionId);
    expect(after.statusCode).toBe(403);
    expect(after.json().error).toBe(m.ended.revoked);
    expect((await owned(revoked, p.id)).ended?.reason).toBe('revoked');
  });

  it('enforces the updates promise: none, 12 months, lifetime', async () => {
    const { p, versionId: v1 } = await publishedEx5('Promises');
    const setPolicy = (updatePolicy: string) =>
      t.call(r.saveDeliverySettings, {
        token,
        params: { productId: p.id },
        body: { updatePolicy, guide: '# Install\n\nCopy the file into **MQL5/Indicators**.' },
      });
    expect((await setPolicy('none')).statusCode).toBe(200);
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    await t.database.db.execute(sql`update purchases set paid_at = now() - interval '1 second'
      where id = ${buyer.purchaseId}`);
    const v2 = (
      await uploaded(p.id, { name: 'b.ex5', data: ex5 }, { platform: 'mt5', version: '2' })
    ).versionId;
    await publish(p.id, v2, 'Faster.');
    let d = await owned(buyer, p.id);
    expect(d.updates).toEqual({ policy: 'none', label: 'The version you buy, without updates' });
    expect(d.guide?.html).toContain('<strong>MQL5/Indicators</strong>');
    expect(d.platforms[0]!.current).toMatchObject({ version: '2', available: false });
    expect(d.platforms[0]!.earlier).toMatchObject([{ version: '1', available: true }]);
    const outside = await linkFor(buyer, p.id, v2);
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error).toBe(m.outsideUpdates);
    expect((await linkFor(buyer, p.id, v1)).statusCode).toBe(200);

    // Twelve months: a purchase 13 months ago does not cover today's version; lifetime does.
    await setPolicy('year');
    await t.database.db.execute(sql`update purchases set paid_at = now() - interval '13 months'
      where id = ${buyer.purchaseId}`);
    await t.database.db
      .execute(sql`update deliverable_versions set published_at = now() - interval '14 months'
      where id = ${v1}`);
    d = await owned(buyer, p.id);
    expect(d.platforms[0]!.current.available).toBe(false);
    await t.database.db.execute(sql`update purchases set paid_at = now() - interval '11 months'
      where id = ${buyer.purchaseId}`);
    expect((await owned(buyer, p.id)).platforms[0]!.current.available).toBe(true);
    await setPolicy('lifetime');
    await t.database.db.execute(sql`update purchases set paid_at = now() - interval '5 years'
      where id = ${buyer.purchaseId}`);
    expect((await owned(buyer, p.id)).platforms[0]!.current.available).toBe(true);
  });
});

describe('versions', () => {
  it('a new version e-mails its owners and not others; unsubscribe stops it per product', async () => {
    const { p } = await publishedEx5('Mailed Indicator', '2.4');
    const ownerA = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const ownerB = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const outsider = await buyPaidProduct(
      t,
      vendor.vendorUrl,
      (await newProduct('Unrelated')).priceId,
    );
    await t.jobs.settle();
    const subject = 'Version 2.5 of Mailed Indicator is out';
    const inbox = () => t.smtp.inbox.filter((mail) => mail.subject.startsWith('Version 2.'));
    const v2 = (
      await uploaded(p.id, { name: 'b.ex5', data: ex5 }, { platform: 'mt5', version: '2.5' })
    ).versionId;
    await publish(p.id, v2, 'Adds alerts.');
    await t.jobs.settle();
    const sent = inbox().filter((mail) => mail.subject === subject);
    expect(sent.flatMap((mail) => mail.to).sort()).toEqual([ownerA.email, ownerB.email].sort());
    expect(sent.some((mail) => mail.to.includes(outsider.email))).toBe(false);
    // The job again sends nothing more.
    const { sendVersionMails } = await import('./mail.ts');
    expect(await sendVersionMails(t.deps, v2)).toBe(0);

    const text = (
      await t.database.db.execute<{ text: string }>(sql`select text from mail_outbox
        where lower("to") = lower(${ownerA.email}) and subject = ${subject}`)
    ).rows[0]!.text;
    expect(text).toContain('Adds alerts.');
    const link = /(https?:\/\/\S+\/version-mails\/unsubscribe\?token=\S+)/.exec(text)![1]!;
    const res = await t.call(r.unsubscribeVersionMails, {
      body: { token: new URL(link).searchParams.get('token')! },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(m.unsubscribed);
    expect((await owned(ownerA, p.id)).versionMails).toBe(false);
    expect((await owned(ownerB, p.id)).versionMails).toBe(true);
    const bad = await t.call(r.unsubscribeVersionMails, { body: { token: 'x.y' } });
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error).toBe(m.unsubscribeInvalid);

    const v3 = (
      await uploaded(p.id, { name: 'c.ex5', data: ex5 }, { platform: 'mt5', version: '2.6' })
    ).versionId;
    await publish(p.id, v3, 'Fixes.');
    await t.jobs.settle();
    const third = inbox().filter(
      (mail) => mail.subject === 'Version 2.6 of Mailed Indicator is out',
    );
    expect(third.flatMap((mail) => mail.to)).toEqual([ownerB.email]);

    // Signed in, the owner turns them back on (and B off); only owners have a switch.
    const setMails = (who: { token: string }, productId: string, enabled: unknown) =>
      t.call(r.setVersionMails, { token: who.token, params: { productId }, body: { enabled } });
    const on = await setMails(ownerA, p.id, true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ versionMails: true, message: m.subscribed });
    expect((await setMails(ownerB, p.id, false)).json()).toEqual({
      versionMails: false,
      message: m.unsubscribed,
    });
    expect((await setMails(ownerB, p.id, false)).statusCode).toBe(200);
    expect((await owned(ownerA, p.id)).versionMails).toBe(true);
    expect((await setMails(outsider, p.id, true)).statusCode).toBe(404);
    expect((await setMails(ownerA, p.id, 'yes')).statusCode).toBe(400);
    expect(
      (await t.call(r.setVersionMails, { params: { productId: p.id }, body: { enabled: true } }))
        .statusCode,
    ).toBe(401);
    const v4 = (
      await uploaded(p.id, { name: 'd.ex5', data: ex5 }, { platform: 'mt5', version: '2.7' })
    ).versionId;
    await publish(p.id, v4, 'More.');
    await t.jobs.settle();
    const fourth = inbox().filter(
      (mail) => mail.subject === 'Version 2.7 of Mailed Indicator is out',
    );
    expect(fourth.flatMap((mail) => mail.to)).toEqual([ownerA.email]);
  });

  it('two drafts published at once leave one current; roll-back and draft deletion', async () => {
    const p = await newProduct('Race');
    const a = (
      await uploaded(p.id, { name: 'a.ex5', data: ex5 }, { platform: 'mt5', version: '1' })
    ).versionId;
    const b = (
      await uploaded(p.id, { name: 'b.ex5', data: ex5 }, { platform: 'mt5', version: '2' })
    ).versionId;
    const both = await Promise.all(
      [a, b].map((versionId) =>
        t.call(r.publishDeliverable, {
          token,
          params: { productId: p.id, versionId },
          body: { notes: '' },
        }),
      ),
    );
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
    const current = await t.database.db.execute<{ id: string }>(
      sql`select id from deliverable_versions where product_id = ${p.id} and is_current`,
    );
    expect(current.rows).toHaveLength(1);
    const back = current.rows[0]!.id === a ? b : a;
    const rolled = await t.call(r.makeDeliverableCurrent, {
      token,
      params: { productId: p.id, versionId: back },
    });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect(
      (rolled.json().delivery as VendorDelivery).versions.filter((v) => v.current).map((v) => v.id),
    ).toEqual([back]);
    expect(
      (await t.call(r.deleteDeliverableDraft, { token, params: { productId: p.id, versionId: a } }))
        .statusCode,
    ).toBe(409);
    const draft = (
      await uploaded(p.id, { name: 'c.ex5', data: ex5 }, { platform: 'mt5', version: '3' })
    ).versionId;
    expect(
      (
        await t.call(r.makeDeliverableCurrent, {
          token,
          params: { productId: p.id, versionId: draft },
        })
      ).statusCode,
    ).toBe(409);
    expect(storedFiles(p.id)).toHaveLength(3);
    const deleted = await t.call(r.deleteDeliverableDraft, {
      token,
      params: { productId: p.id, versionId: draft },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(storedFiles(p.id)).toHaveLength(2);
    expect(
      (
        await t.call(r.publishDeliverable, {
          token,
          params: { productId: p.id, versionId: a },
          body: { notes: '' },
        })
      ).statusCode,
    ).toBe(409);
  });
});
