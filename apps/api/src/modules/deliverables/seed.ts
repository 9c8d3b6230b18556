// Demo data (issue 29): every demo delivery (`demo-content.ts`, shaped by `demo-shape.ts`) becomes
// stored files, published versions and a guide. Rows are written by `seedDemoDeliveries` (with the
// rest of the seed); the files are put in storage by `storeDemoDeliverables` at start, as course
// media and app builds are. Both are idempotent and skip what exists, so a start stays fast.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../integrations/storage/port.ts';
import type { DemoDelivery, DemoVersion } from './demo-shape.ts';
import { addDeliverySettings, addPublishedFile, existingVersionIds } from './files.ts';

export { demoDeliveries } from './demo-content.ts';

export const DEMO_FILES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-files');

/** Where a demo file is stored: a private key, downloaded through signed links like any other. */
export const demoFileKey = (file: string) => `demo/deliverables/${file}`;

const DAY_MS = 86_400_000;

/** Puts each demo file in storage unless it is there; how many it stored. */
export async function storeDemoDeliverables(
  storage: Storage,
  deliveries: readonly DemoDelivery[],
  dir = DEMO_FILES_DIR,
): Promise<number> {
  let stored = 0;
  for (const file of new Set(deliveries.flatMap((d) => d.versions.flatMap((v) => v.file ?? []))))
    if (!(await storage.exists(demoFileKey(file)))) {
      await storage.put(
        demoFileKey(file),
        await readFile(path.join(dir, file)),
        'application/octet-stream',
      );
      stored++;
    }
  return stored;
}

/**
 * The demo products' versions and guides; `productId` finds a demo product by its title (a product
 * the catalogue does not have is skipped). Each platform's newest version is current. How many
 * versions it added.
 */
export async function seedDemoDeliveries(
  db: Db,
  deliveries: readonly DemoDelivery[],
  productId: (title: string) => Promise<string | null>,
  dir = DEMO_FILES_DIR,
): Promise<number> {
  let added = 0;
  const now = Date.now();
  for (const delivery of deliveries) {
    const id = await productId(delivery.title);
    if (!id) continue;
    await addDeliverySettings(db, id, delivery);
    const newest = new Map<string, number>();
    for (const v of delivery.versions)
      newest.set(v.platform, Math.min(newest.get(v.platform) ?? Infinity, v.releasedDaysAgo));
    // Oldest first, so each platform's current version is the last one added.
    const versions = [...delivery.versions].sort((a, b) => b.releasedDaysAgo - a.releasedDaysAgo);
    const idOf = (v: DemoVersion) => `dlv_demo_${id}_${v.platform}_${v.version}`;
    const existing = await existingVersionIds(db, versions.map(idOf));
    for (const v of versions) {
      if (existing.has(idOf(v))) continue;
      const base = {
        id: idOf(v),
        productId: id,
        platform: v.platform,
        version: v.version,
        notes: v.notes,
        publishedAt: new Date(now - v.releasedDaysAgo * DAY_MS),
        current: newest.get(v.platform) === v.releasedDaysAgo,
      };
      const fresh = v.file
        ? await addPublishedFile(db, {
            ...base,
            fileName: path.basename(v.file),
            storageKey: demoFileKey(v.file),
            bytes: await readFile(path.join(dir, v.file)),
          })
        : v.link
          ? await addPublishedFile(db, { ...base, link: v.link })
          : false;
      if (fresh) added++;
    }
  }
  return added;
}
