import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deliverablesRoutes as r, type OwnedDelivery } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct } from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { makeZip } from '../../../test/zip.ts';
import type { DemoDelivery } from './demo-shape.ts';
import { seedDemoDeliveries, storeDemoDeliverables } from './seed.ts';

// The demo deliveries seeder with a small list of its own (the demo's own list is data another file
// holds): files stored once, versions published with the newest current, a guide, and a second run
// that changes nothing. What it seeds downloads like anything a vendor uploaded.

const t = useTestApp();

const v1 = makeZip([{ name: 'MQL5/Indicators/Box.mq5', data: Buffer.from('// v1\n') }]);
const v2 = makeZip([{ name: 'MQL5/Indicators/Box.mq5', data: Buffer.from('// v2\n') }]);

describe('demo deliveries', () => {
  it('stores files and publishes versions once; owners download them', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'demo-files-'));
    for (const [file, bytes] of [
      ['box/mt5-1.0/Box.zip', v1],
      ['box/mt5-1.1/Box.zip', v2],
    ] as const) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), bytes);
    }
    const vendor = await createVendor(t);
    const product = await createProduct(t, vendor.id, { title: 'Seeded Box', platforms: ['mt5'] });
    const list: DemoDelivery[] = [
      {
        title: 'Seeded Box',
        updatePolicy: 'lifetime',
        guide: '## Install\n\nUnzip into the data folder.',
        versions: [
          {
            platform: 'mt5',
            version: '1.1',
            notes: 'Faster.',
            file: 'box/mt5-1.1/Box.zip',
            releasedDaysAgo: 2,
          },
          {
            platform: 'mt5',
            version: '1.0',
            notes: 'First.',
            file: 'box/mt5-1.0/Box.zip',
            releasedDaysAgo: 30,
          },
          {
            platform: 'thinkorswim',
            version: '1.0',
            notes: 'Shared.',
            link: 'https://tos.mx/demo1',
            releasedDaysAgo: 5,
          },
        ],
      },
      { title: 'Not In The Catalogue', updatePolicy: 'none', guide: '', versions: [] },
    ];
    const idOf = async (title: string) => (title === 'Seeded Box' ? product.id : null);
    expect(await storeDemoDeliverables(t.deps.storage, list, dir)).toBe(2);
    expect(await seedDemoDeliveries(t.database.db, list, idOf, dir)).toBe(3);
    expect(await storeDemoDeliverables(t.deps.storage, list, dir)).toBe(0);
    expect(await seedDemoDeliveries(t.database.db, list, idOf, dir)).toBe(0);

    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    const res = await t.call(r.ownedDelivery, {
      token: buyer.token,
      params: { productId: product.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const delivery = res.json().delivery as OwnedDelivery;
    expect(delivery.guide?.html).toContain('<h2');
    expect(
      delivery.platforms.map((p) => [
        p.platform,
        p.current.version,
        p.earlier.map((e) => e.version),
      ]),
    ).toEqual([
      ['mt5', '1.1', ['1.0']],
      ['thinkorswim', '1.0', []],
    ]);
    expect(delivery.platforms[0]!.current).toMatchObject({
      fileName: 'Box.zip',
      sizeBytes: v2.length,
    });
    const link = await t.call(r.downloadLink, {
      token: buyer.token,
      params: { productId: product.id, versionId: delivery.platforms[0]!.current.id },
    });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject(link.json().url as string);
    expect(file.statusCode).toBe(200);
    // The vendor's entry unchanged, the licence entry added after it.
    const dirOffset = v2.readUInt32LE(v2.length - 6);
    expect(file.rawPayload.subarray(0, dirOffset).equals(v2.subarray(0, dirOffset))).toBe(true);
    expect(file.rawPayload.includes(`LICENSE-${buyer.purchaseId}.txt`)).toBe(true);
  });
});
