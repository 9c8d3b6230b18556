// What other modules read and write of a product's versions: the licences module's app builds are
// deliverables (ADR 053), and seeds add published files the same way uploads do.
import type { DeliverablePlatform, UpdatePolicy } from '@tradeshelf/contract';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import * as repo from './repository.ts';
import { bufferRanges, readZipDirectory } from './zip.ts';

export interface PublishedFile {
  id: string;
  platform: DeliverablePlatform;
  version: string;
  fileName: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
  publishedAt: Date;
}

const fileView = (v: repo.VersionRow): PublishedFile => ({
  id: v.id,
  platform: v.platform,
  version: v.version,
  fileName: v.fileName!,
  storageKey: v.storageKey!,
  sizeBytes: v.sizeBytes!,
  sha256: v.sha256!,
  publishedAt: v.publishedAt!,
});

/** Each product's newest current file (an app's build), by product id. */
export async function latestFiles(
  db: Tx,
  productIds: readonly string[],
): Promise<Map<string, PublishedFile>> {
  const out = new Map<string, PublishedFile>();
  const current = (await repo.currentVersionsOf(db, productIds))
    .filter((v) => v.storageKey !== null)
    .sort(
      (a, b) => b.publishedAt!.getTime() - a.publishedAt!.getTime() || a.id.localeCompare(b.id),
    );
  for (const v of current) if (!out.has(v.productId)) out.set(v.productId, fileView(v));
  return out;
}

/** A product's published files, newest first. */
export async function publishedFiles(
  db: Tx,
  productId: string,
  limit: number,
): Promise<PublishedFile[]> {
  return (await repo.versionsOf(db, productId))
    .filter((v) => v.publishedAt !== null && v.storageKey !== null)
    .sort((a, b) => b.publishedAt!.getTime() - a.publishedAt!.getTime())
    .slice(0, limit)
    .map(fileView);
}

/**
 * Adds a published version of a file already in storage, or of a link (seeds). Idempotent by `id`;
 * `current` makes it its platform's current version when it is added. No e-mail goes out.
 */
export async function addPublishedFile(
  db: Tx,
  row: {
    id: string;
    productId: string;
    platform: DeliverablePlatform;
    version: string;
    notes: string;
    publishedAt: Date;
    current: boolean;
  } & (
    | { fileName: string; storageKey: string; bytes: Buffer; link?: undefined }
    | { link: string; fileName?: undefined; storageKey?: undefined; bytes?: undefined }
  ),
): Promise<boolean> {
  const bytes = row.bytes ?? null;
  const zip =
    bytes && /\.zip$/i.test(row.fileName ?? '')
      ? await readZipDirectory(bufferRanges(bytes), bytes.length)
      : null;
  if (zip && !zip.ok) throw new Error(`archive ${row.fileName}: ${zip.why}`);
  const dir = zip?.ok ? zip.dir : null;
  const sha = bytes ? createHash('sha256').update(bytes).digest('hex') : null;
  return db.transaction(async (tx) => {
    const added = await tx.execute<{ id: string }>(sql`insert into deliverable_versions (id,
        product_id, platform, version, notes, file_name, size_bytes, sha256, storage_key, link,
        zip_dir_offset, zip_dir_size, zip_entries, created_at, published_at, mailed_at)
      values (${row.id}, ${row.productId}, ${row.platform}, ${row.version}, ${row.notes},
        ${row.fileName ?? null}, ${bytes?.length ?? null}, ${sha}, ${row.storageKey ?? null},
        ${row.link ?? null}, ${dir?.offset ?? null}, ${dir?.size ?? null}, ${dir?.entries ?? null},
        ${row.publishedAt}, ${row.publishedAt}, ${row.publishedAt})
      on conflict do nothing returning id`);
    const version = added.rows[0] ? await repo.versionById(tx, row.id) : null;
    if (version && row.current) await repo.makeCurrent(tx, version);
    return version !== null;
  });
}

/** A product's guide and updates promise, unless it has some already (seeds). */
export async function addDeliverySettings(
  db: Tx,
  productId: string,
  settings: { updatePolicy: UpdatePolicy; guide: string },
): Promise<void> {
  await db.execute(sql`insert into delivery_settings (product_id, update_policy, guide,
      guide_updated_at)
    values (${productId}, ${settings.updatePolicy}, ${settings.guide},
      ${settings.guide ? sql`now()` : null})
    on conflict (product_id) do nothing`);
}

/** Which of these version ids exist (a seed skips reading files it already added). */
export async function existingVersionIds(db: Tx, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const found = await db.execute<{ id: string }>(sql`select id from deliverable_versions
    where id = any(${sql.param([...ids])}::text[])`);
  return new Set(found.rows.map((r) => r.id));
}
