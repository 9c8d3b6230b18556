// The deliverables module's SQL: versions, settings, download counts and mail opt-outs.
import type { DeliverablePlatform, UpdatePolicy } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface VersionRow {
  id: string;
  productId: string;
  platform: DeliverablePlatform;
  version: string;
  notes: string;
  fileName: string | null;
  sizeBytes: number | null;
  sha256: string | null;
  storageKey: string | null;
  link: string | null;
  zipDirOffset: number | null;
  zipDirSize: number | null;
  zipEntries: number | null;
  createdAt: Date;
  publishedAt: Date | null;
  isCurrent: boolean;
  downloads: number;
}

interface Raw extends Record<string, unknown> {
  id: string;
  product_id: string;
  platform: DeliverablePlatform;
  version: string;
  notes: string;
  file_name: string | null;
  size_bytes: string | number | null;
  sha256: string | null;
  storage_key: string | null;
  link: string | null;
  zip_dir_offset: string | number | null;
  zip_dir_size: number | null;
  zip_entries: number | null;
  created_at: Date | string;
  published_at: Date | string | null;
  is_current: boolean;
  downloads: number | null;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

const view = (r: Raw): VersionRow => ({
  id: r.id,
  productId: r.product_id,
  platform: r.platform,
  version: r.version,
  notes: r.notes,
  fileName: r.file_name,
  sizeBytes: num(r.size_bytes),
  sha256: r.sha256,
  storageKey: r.storage_key,
  link: r.link,
  zipDirOffset: num(r.zip_dir_offset),
  zipDirSize: r.zip_dir_size,
  zipEntries: r.zip_entries,
  createdAt: new Date(r.created_at),
  publishedAt: r.published_at === null ? null : new Date(r.published_at),
  isCurrent: r.is_current,
  downloads: r.downloads ?? 0,
});

const columns = sql`v.id, v.product_id, v.platform, v.version, v.notes, v.file_name, v.size_bytes,
  v.sha256, v.storage_key, v.link, v.zip_dir_offset, v.zip_dir_size, v.zip_entries, v.created_at,
  v.published_at, v.is_current,
  (select coalesce(sum(d.count), 0)::int from deliverable_downloads d where d.version_id = v.id)
    as downloads`;

/** Every version of a product (drafts too): drafts first, then newest first. */
export async function versionsOf(db: Tx, productId: string): Promise<VersionRow[]> {
  const found = await db.execute<Raw>(sql`select ${columns} from deliverable_versions v
    where v.product_id = ${productId}
    order by v.published_at desc nulls first, v.created_at desc, v.id`);
  return found.rows.map(view);
}

/** The published versions of several products (product pages). */
export async function currentVersionsOf(
  db: Tx,
  productIds: readonly string[],
): Promise<VersionRow[]> {
  if (!productIds.length) return [];
  const found = await db.execute<Raw>(sql`select ${columns} from deliverable_versions v
    where v.product_id = any(${sql.param([...productIds])}::text[]) and v.is_current
    order by v.platform`);
  return found.rows.map(view);
}

export async function versionOf(
  db: Tx,
  productId: string,
  versionId: string,
  lock = false,
): Promise<VersionRow | null> {
  const found = await db.execute<Raw>(sql`select ${columns} from deliverable_versions v
    where v.id = ${versionId} and v.product_id = ${productId} ${lock ? sql`for update` : sql``}`);
  return found.rows[0] ? view(found.rows[0]) : null;
}

export async function versionById(db: Tx, versionId: string): Promise<VersionRow | null> {
  const found = await db.execute<Raw>(sql`select ${columns} from deliverable_versions v
    where v.id = ${versionId}`);
  return found.rows[0] ? view(found.rows[0]) : null;
}

export async function versionTaken(
  db: Tx,
  productId: string,
  platform: DeliverablePlatform,
  version: string,
): Promise<boolean> {
  const found = await db.execute<{ taken: boolean }>(sql`select exists (select 1
    from deliverable_versions where product_id = ${productId} and platform = ${platform}
      and version = ${version}) as taken`);
  return found.rows[0]?.taken ?? false;
}

export interface SettingsRow {
  updatePolicy: UpdatePolicy;
  guide: string;
  guideUpdatedAt: Date | null;
}

export async function settingsOf(db: Tx, productId: string): Promise<SettingsRow> {
  const found = await db.execute<{
    update_policy: UpdatePolicy;
    guide: string;
    guide_updated_at: Date | string | null;
  }>(sql`select update_policy, guide, guide_updated_at from delivery_settings
    where product_id = ${productId}`);
  const r = found.rows[0];
  if (!r) return { updatePolicy: 'lifetime', guide: '', guideUpdatedAt: null };
  return {
    updatePolicy: r.update_policy,
    guide: r.guide,
    guideUpdatedAt: r.guide_updated_at === null ? null : new Date(r.guide_updated_at),
  };
}

/** Several products' settings; a product without a row has the defaults. */
export async function settingsOfMany(
  db: Tx,
  productIds: readonly string[],
): Promise<Map<string, SettingsRow>> {
  const out = new Map<string, SettingsRow>();
  if (!productIds.length) return out;
  const found = await db.execute<{
    product_id: string;
    update_policy: UpdatePolicy;
    guide: string;
    guide_updated_at: Date | string | null;
  }>(sql`select product_id, update_policy, guide, guide_updated_at from delivery_settings
    where product_id = any(${sql.param([...productIds])}::text[])`);
  for (const r of found.rows)
    out.set(r.product_id, {
      updatePolicy: r.update_policy,
      guide: r.guide,
      guideUpdatedAt: r.guide_updated_at === null ? null : new Date(r.guide_updated_at),
    });
  return out;
}

/**
 * Makes a published version its platform's current one. The per-platform lock orders concurrent
 * publishes, so the partial unique index never sees two current rows and the last one wins.
 */
export async function makeCurrent(tx: Tx, version: VersionRow): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`deliverable:${version.productId}:${version.platform}`}))`,
  );
  await tx.execute(sql`update deliverable_versions set is_current = false
    where product_id = ${version.productId} and platform = ${version.platform} and is_current
      and id <> ${version.id}`);
  await tx.execute(sql`update deliverable_versions set is_current = true where id = ${version.id}`);
}

export async function optedOut(db: Tx, userId: string, productId: string): Promise<boolean> {
  const found = await db.execute<{ out: boolean }>(sql`select exists (select 1
    from version_mail_opt_outs where user_id = ${userId} and product_id = ${productId}) as out`);
  return found.rows[0]?.out ?? false;
}

/** What the vendor's deliverable files take in storage (their budget, ADR 048). */
export async function storedDeliverableBytes(db: Tx, vendorId: string): Promise<number> {
  const found = await db.execute<{ bytes: string }>(sql`
    select coalesce(sum(v.size_bytes), 0) as bytes from deliverable_versions v
    join products p on p.id = v.product_id where p.vendor_id = ${vendorId}`);
  return Number(found.rows[0]!.bytes);
}
