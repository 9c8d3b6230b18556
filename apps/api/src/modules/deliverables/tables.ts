import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { deliverablePlatforms, updatePolicies } from '@tradeshelf/contract';
import { productColumn, products } from '../catalog/tables.ts';
import { userColumn } from '../users/tables.ts';
import { idColumn, refColumn, ts } from '../../db/columns.ts';

/**
 * One version of a product's file (or link) for one platform (ADR 053). A draft has no
 * `published_at`; exactly one published version per platform is current, which SQL enforces.
 */
export const deliverableVersions = pgTable(
  'deliverable_versions',
  {
    id: idColumn(),
    productId: productColumn(),
    platform: text('platform', { enum: deliverablePlatforms }).notNull(),
    version: text('version').notNull(),
    notes: text('notes').notNull().default(''),
    /** A file: its download name, size, hash and private storage key; a link: `link` only. */
    fileName: text('file_name'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sha256: text('sha256'),
    storageKey: text('storage_key'),
    link: text('link'),
    /** A ZIP's central directory (offset, size, entries), read at upload: downloads trace it. */
    zipDirOffset: bigint('zip_dir_offset', { mode: 'number' }),
    zipDirSize: integer('zip_dir_size'),
    zipEntries: integer('zip_entries'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When buyers got it (its release date); null while a draft. */
    publishedAt: ts('published_at'),
    isCurrent: boolean('is_current').notNull().default(false),
    /** Set when the new-version e-mails were queued, so a repeated job sends none again. */
    mailedAt: ts('mailed_at'),
  },
  (t) => [
    uniqueIndex('deliverable_versions_number_key').on(t.productId, t.platform, t.version),
    uniqueIndex('deliverable_versions_current_key')
      .on(t.productId, t.platform)
      .where(sql`${t.isCurrent}`),
    index('deliverable_versions_product_idx').on(t.productId, t.publishedAt),
    check(
      'deliverable_versions_file_or_link',
      sql`(${t.link} is null) = (${t.storageKey} is not null and ${t.fileName} is not null
        and ${t.sizeBytes} is not null and ${t.sha256} is not null)`,
    ),
    check(
      'deliverable_versions_current_published',
      sql`not ${t.isCurrent} or ${t.publishedAt} is not null`,
    ),
  ],
);

/** A product's set-up guide and its promise about updates; no row: no guide, lifetime updates. */
export const deliverySettings = pgTable('delivery_settings', {
  productId: text('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  updatePolicy: text('update_policy', { enum: updatePolicies }).notNull().default('lifetime'),
  guide: text('guide').notNull().default(''),
  guideUpdatedAt: ts('guide_updated_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Downloads per buyer and version (the vendor sees totals; support sees who). */
export const deliverableDownloads = pgTable(
  'deliverable_downloads',
  {
    userId: userColumn(),
    versionId: refColumn('version_id', () => deliverableVersions.id),
    count: integer('count').notNull().default(0),
    firstAt: ts('first_at').notNull().defaultNow(),
    lastAt: ts('last_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.versionId] }),
    index('deliverable_downloads_version_idx').on(t.versionId),
  ],
);

/** Owners who asked for no more new-version e-mails about one product. */
export const versionMailOptOuts = pgTable(
  'version_mail_opt_outs',
  {
    userId: userColumn(),
    productId: productColumn(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);
