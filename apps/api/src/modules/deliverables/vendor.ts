// Use cases: the vendor's versions, guide and updates promise (ADR 053). A product that is not the
// caller's is 404 before a byte of an upload is read.
import {
  deliverableMessages as m,
  linkPlatforms,
  type DeliverablePlatform,
  type DeliverySettingsBody,
  type VendorDelivery,
  type VendorDeliverableVersion,
} from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { readImage, storeUpload } from '../../platform/image-upload.ts';
import { imageFileUrl, presentImage } from '../../platform/images.ts';
import type { FileReader } from '../../platform/multipart.ts';
import { rules } from '../../platform/rate-limit.ts';
import { uploadFile, type StoredFile } from '../../platform/uploads.ts';
import { vendorProduct } from '../catalog/index.ts';
import { deliverableRules, type DeliverableType } from './file-rules.ts';
import * as repo from './repository.ts';
import { readZipDirectory, storedRanges } from './zip.ts';

export async function ownProduct(deps: AppDeps, vendorId: string, productId: string) {
  const product = await vendorProduct(deps.database.db, vendorId, productId);
  if (!product) throw new AppError('not_found', m.productNotFound);
  return product;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the buyer and the vendor both see of a version: its number, notes, and file or link. */
export function versionBasics(v: repo.VersionRow) {
  return {
    id: v.id,
    version: v.version,
    notes: v.notes,
    notesHtml: renderMarkdown(v.notes),
    fileName: v.fileName,
    sizeBytes: v.sizeBytes,
    sha256: v.sha256,
    link: v.link,
  };
}

export function vendorVersionView(v: repo.VersionRow): VendorDeliverableVersion {
  return {
    ...versionBasics(v),
    platform: v.platform,
    releasedAt: (v.publishedAt ?? v.createdAt).toISOString(),
    publishedAt: iso(v.publishedAt),
    current: v.isCurrent,
    downloads: v.downloads,
  };
}

export async function vendorDeliveryView(db: Tx, productId: string): Promise<VendorDelivery> {
  const [settings, versions] = await Promise.all([
    repo.settingsOf(db, productId),
    repo.versionsOf(db, productId),
  ]);
  return {
    productId,
    updatePolicy: settings.updatePolicy,
    guide: settings.guide,
    guideUpdatedAt: iso(settings.guideUpdatedAt),
    versions: versions.map(vendorVersionView),
  };
}

export async function vendorDelivery(deps: AppDeps, vendorId: string, productId: string) {
  await ownProduct(deps, vendorId, productId);
  return vendorDeliveryView(deps.database.db, productId);
}

export async function saveSettings(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  body: DeliverySettingsBody,
) {
  await ownProduct(deps, vendorId, productId);
  const guide = body.guide.trim();
  await deps.database.db.execute(sql`insert into delivery_settings (product_id, update_policy,
      guide, guide_updated_at)
    values (${productId}, ${body.updatePolicy}, ${guide}, ${guide ? sql`now()` : null})
    on conflict (product_id) do update set update_policy = excluded.update_policy,
      guide = excluded.guide,
      guide_updated_at = case when delivery_settings.guide = excluded.guide
        then delivery_settings.guide_updated_at else excluded.guide_updated_at end,
      updated_at = now()`);
  return vendorDeliveryView(deps.database.db, productId);
}

const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';

const taken = () => new AppError('conflict', m.versionTaken, { version: m.versionTaken });

/** Inserts a draft; a number taken meanwhile (a race past the early check) is 409. */
async function insertDraft(
  tx: Tx,
  row: {
    id: string;
    productId: string;
    platform: DeliverablePlatform;
    version: string;
    file?: StoredFile<DeliverableType> & {
      dir: { offset: number; size: number; entries: number } | null;
    };
    link?: string;
  },
) {
  const f = row.file;
  try {
    await tx.execute(sql`insert into deliverable_versions (id, product_id, platform, version,
        file_name, size_bytes, sha256, storage_key, link, zip_dir_offset, zip_dir_size, zip_entries)
      values (${row.id}, ${row.productId}, ${row.platform}, ${row.version}, ${f?.name ?? null},
        ${f?.size ?? null}, ${f?.sha256 ?? null}, ${f?.key ?? null}, ${row.link ?? null},
        ${f?.dir?.offset ?? null}, ${f?.dir?.size ?? null}, ${f?.dir?.entries ?? null})`);
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/**
 * A draft version for one platform: the type checked by the bytes as they stream to storage, then,
 * for archives, the stored central directory read back and judged; a refusal keeps nothing.
 */
export async function uploadDeliverable(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  productId: string,
  query: { platform: DeliverablePlatform; version: string },
  read: FileReader,
) {
  const id = newId('dlv');
  const { platform, version } = query;
  await uploadFile(
    deps,
    userId,
    read,
    deliverableRules(platform),
    async () => {
      await deps.limiter.consume([{ rule: rules.mediaUpload, key: userId }]);
      await ownProduct(deps, vendorId, productId);
      if (linkPlatforms.includes(platform))
        throw new AppError('validation_failed', m.linkOnly, { platform: m.linkOnly });
      if (await repo.versionTaken(deps.database.db, productId, platform, version)) throw taken();
      return { vendorId, key: () => `deliverables/${productId}/${id}` };
    },
    async (file) => {
      let dir: { offset: number; size: number; entries: number } | null = null;
      if (file.type === 'application/zip') {
        const read = await readZipDirectory(storedRanges(deps.storage, file.key), file.size);
        if (!read.ok)
          throw new AppError('business_rule', m.archiveUnsafe, { file: m.archiveUnsafe });
        dir = read.dir;
      }
      await deps.database.db.transaction(async (tx) => {
        await insertDraft(tx, { id, productId, platform, version, file: { ...file, dir } });
        await file.withinBudget(tx);
      });
    },
  );
  return { delivery: await vendorDeliveryView(deps.database.db, productId), versionId: id };
}

export async function addLink(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  body: { platform: DeliverablePlatform; version: string; url: string },
) {
  await ownProduct(deps, vendorId, productId);
  if (!linkPlatforms.includes(body.platform))
    throw new AppError('validation_failed', m.fileOnly, { platform: m.fileOnly });
  const id = newId('dlv');
  await deps.database.db.transaction((tx) =>
    insertDraft(tx, {
      id,
      productId,
      platform: body.platform,
      version: body.version,
      link: body.url,
    }),
  );
  return { delivery: await vendorDeliveryView(deps.database.db, productId), versionId: id };
}

const versionNotFound = () => new AppError('not_found', m.versionNotFound);

/**
 * Publishes a draft: it becomes its platform's current version, and the new-version e-mail job is
 * queued in the same transaction (it exists only if the publish commits).
 */
export async function publish(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  versionId: string,
  notes: string,
) {
  await ownProduct(deps, vendorId, productId);
  await deps.database.db.transaction(async (tx) => {
    const version = await repo.versionOf(tx, productId, versionId, true);
    if (!version) throw versionNotFound();
    if (version.publishedAt) throw new AppError('conflict', m.alreadyPublished);
    await tx.execute(sql`update deliverable_versions set published_at = now(), notes = ${notes.trim()}
      where id = ${version.id}`);
    await repo.makeCurrent(tx, version);
    await deps.jobs.send(queues.deliverablesVersionMail, { versionId: version.id }, { tx });
  });
  return { delivery: await vendorDeliveryView(deps.database.db, productId), message: m.published };
}

/** Roll-back (or forward): an earlier published version becomes current; nobody is e-mailed. */
export async function setCurrent(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  versionId: string,
) {
  await ownProduct(deps, vendorId, productId);
  await deps.database.db.transaction(async (tx) => {
    const version = await repo.versionOf(tx, productId, versionId, true);
    if (!version) throw versionNotFound();
    if (!version.publishedAt) throw new AppError('conflict', m.notPublished);
    await repo.makeCurrent(tx, version);
  });
  return {
    delivery: await vendorDeliveryView(deps.database.db, productId),
    message: m.madeCurrent,
  };
}

/** A draft and its file go; published versions stay for the buyers who rely on them. */
export async function deleteDraft(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  versionId: string,
) {
  await ownProduct(deps, vendorId, productId);
  const key = await deps.database.db.transaction(async (tx) => {
    const version = await repo.versionOf(tx, productId, versionId, true);
    if (!version) throw versionNotFound();
    if (version.publishedAt) throw new AppError('conflict', m.draftOnly);
    await tx.execute(sql`delete from deliverable_versions where id = ${version.id}`);
    return version.storageKey;
  });
  if (key) await deps.storage.delete(key);
  return { delivery: await vendorDeliveryView(deps.database.db, productId) };
}

/** Where a product's guide pictures are stored; the guide shows pictures from here only. */
const guideImagePrefix = (productId: string) => `public/guides/${productId}`;

/** Whether `src` is one of the product's own guide pictures (what its guide may show). */
export function isGuideImage(deps: AppDeps, productId: string): (src: string) => boolean {
  const base = `${deps.storage.publicUrl(guideImagePrefix(productId))}/`;
  return (src) => src.startsWith(base) && !src.includes('..');
}

/**
 * A picture for the vendor's own product's guide, through the picture pipeline (decoded whole,
 * cleaned, at most 1 200 px), answered as the Markdown that shows it.
 */
export async function addGuideImage(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  productId: string,
  read: FileReader,
) {
  await ownProduct(deps, vendorId, productId);
  const bytes = await readImage(deps, userId, 'catalogue', read);
  const ref = await storeUpload(deps, bytes, guideImagePrefix(productId), {
    fit: 'inside',
    max: 1200,
  });
  const image = presentImage(deps.storage, ref)!;
  const url = imageFileUrl(deps.storage, ref)!;
  return {
    url,
    width: image.width,
    height: image.height,
    markdown: `![${m.guideImageAlt}](${url})`,
  };
}
