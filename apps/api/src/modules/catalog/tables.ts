import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, refColumn, timestamps, ts } from '../../db/columns.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const vendors = pgTable(
  'vendors',
  {
    id: idColumn(),
    userId: refColumn('user_id', () => users.id, 'restrict'),
    vendorUrl: text('vendor_url').notNull(),
    displayName: text('display_name').notNull(),
    avatarKey: text('avatar_key'),
    bannerKey: text('banner_key'),
    bio: text('bio').notNull().default(''),
    socialLinks: jsonb('social_links').$type<Record<string, string>>().notNull().default({}),
    verified: boolean('verified').notNull().default(false),
    discordServerId: text('discord_server_id'),
    discordServerName: text('discord_server_name'),
    /** What invoices print as the seller (ADR 060); an empty name prints the display name. */
    businessName: text('business_name').notNull().default(''),
    businessAddress: text('business_address').notNull().default(''),
    taxId: text('tax_id').notNull().default(''),
    taxNote: text('tax_note').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vendors_url_lower_key').on(sql`lower(${t.vendorUrl})`),
    uniqueIndex('vendors_user_key').on(t.userId),
  ],
);

/** A storefront's earlier addresses: each redirects to its current one and stays its (ADR 041). */
export const vendorUrlAliases = pgTable(
  'vendor_url_aliases',
  {
    url: text('url').notNull(),
    vendorId: vendorColumn(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vendor_url_aliases_url_key').on(sql`lower(${t.url})`),
    index('vendor_url_aliases_vendor_idx').on(t.vendorId),
  ],
);

export const products = pgTable(
  'products',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    kind: text('kind', {
      enum: ['indicator', 'scanner', 'alert', 'community', 'course', 'app'],
    }).notNull(),
    category: text('category').notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    description: text('description').notNull().default(''),
    images: text('images')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    platforms: text('platforms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    assetClasses: text('asset_classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    /** The default price (`priceId`). */
    defaultPriceId: text('default_price_id'),
    /** Denormalised from the default price for sorting and price filters. */
    sortAmount: integer('sort_amount').notNull().default(0),
    salesCount: integer('sales_count').notNull().default(0),
    ratingAverage: numeric('rating_average', { precision: 3, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    ...timestamps(),
    /** First published (null: a draft never published); `is_active` says whether it is public now. */
    publishedAt: ts('published_at'),
    /** Weighted: title (A) > tags (B) > summary and description (C). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', tradeshelf_immutable_join(tags)), 'B') || setweight(to_tsvector('english', coalesce(summary, '') || ' ' || coalesce(description, '')), 'C')`,
    ),
    /** Title and tags only, for ranking: small, so ranking thousands of matches stays cheap. */
    rankVector: tsvector('rank_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', tradeshelf_immutable_join(tags)), 'B')`,
    ),
  },
  (t) => [
    uniqueIndex('products_vendor_slug_key').on(t.vendorId, t.slug),
    index('products_vendor_idx').on(t.vendorId, t.isActive),
    index('products_vendor_updated_idx').on(t.vendorId, t.updatedAt.desc(), t.id.desc()),
    index('products_search_idx').using('gin', t.searchVector),
    index('products_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    // Browse orders (no text query): each sort walks its own partial index instead of sorting the catalogue.
    index('products_browse_sales_idx')
      .on(t.salesCount.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive}`),
    index('products_browse_cat_sales_idx')
      .on(t.category, t.salesCount.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive}`),
    index('products_browse_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive}`),
    index('products_browse_cat_created_idx')
      .on(t.category, t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive}`),
    index('products_browse_price_idx')
      .on(t.sortAmount, t.id)
      .where(sql`${t.isActive}`),
    index('products_browse_rating_idx')
      .on(t.ratingAverage.desc().nullsFirst(), t.ratingCount.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive}`),
  ],
);

export const prices = pgTable(
  'prices',
  {
    id: idColumn(),
    productId: text('product_id').references(() => products.id, { onDelete: 'cascade' }),
    bundleId: text('bundle_id'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    scheme: text('scheme', { enum: ['one_time', 'recurring'] }).notNull(),
    interval: text('interval', { enum: ['week', 'month', 'quarter', 'year'] }),
    trialDays: integer('trial_days'),
    isActive: boolean('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('prices_product_idx').on(t.productId), index('prices_bundle_idx').on(t.bundleId)],
);

export const bundles = pgTable(
  'bundles',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    description: text('description').notNull().default(''),
    imageKey: text('image_key'),
    priceId: text('price_id'),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
    /** First published (null: a draft never published); `is_active` says whether it is public now. */
    publishedAt: ts('published_at'),
  },
  (t) => [
    uniqueIndex('bundles_vendor_slug_key').on(t.vendorId, t.slug),
    index('bundles_vendor_idx').on(t.vendorId),
    index('bundles_vendor_updated_idx').on(t.vendorId, t.updatedAt.desc(), t.id.desc()),
  ],
);

export const bundleItems = pgTable(
  'bundle_items',
  {
    bundleId: refColumn('bundle_id', () => bundles.id),
    productId: productColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.bundleId, t.productId] }),
    index('bundle_items_product_idx').on(t.productId),
  ],
);

export const productPrerequisites = pgTable(
  'product_prerequisites',
  {
    productId: productColumn(),
    requiresProductId: refColumn('requires_product_id', () => products.id),
  },
  (t) => [primaryKey({ columns: [t.productId, t.requiresProductId] })],
);

/**
 * Distinct words of active product titles and tags, for "did you mean" spelling correction: a typo is
 * matched against this small table by trigram similarity, then the corrected words go through full-text
 * search like any other query.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
    frequency: integer('frequency').notNull().default(1),
  },
  (t) => [index('search_terms_trgm_idx').using('gin', sql`${t.term} gin_trgm_ops`)],
);

/**
 * The traders' vocabulary (ADR 023): a word or phrase → the terms it must match, each a set of lexemes
 * (title/tag stems and '@…' field lexemes). Filled from search.sql; a spelling candidate too.
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    word: text('word').notNull(),
    term: integer('term').notNull(),
    lexemes: text('lexemes').array().notNull(),
  },
  (t) => [
    primaryKey({ name: 'search_synonyms_pk', columns: [t.word, t.term] }),
    index('search_synonyms_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`),
  ],
);

/**
 * What a buyer owns: one row per product or bundle granted, by purchase or otherwise. The catalogue
 * joins it to compute `purchased` in the same query as a listing; purchases reach it through orders'
 * events (`subscribers.ts`, in the paying transaction), never orders' SQL (ADR 029).
 */
export const ownerships = pgTable(
  'ownerships',
  {
    id: idColumn(),
    userId: userColumn(),
    productId: text('product_id'),
    bundleId: text('bundle_id'),
    /**
     * A bundle's products when it was granted (ADR 046): owning a product through a bundle reads
     * this, so taking a product out of a bundle later takes nothing from its buyers.
     */
    bundleProductIds: text('bundle_product_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    source: text('source').notNull(),
    grantedAt: ts('granted_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('ownerships_user_product_key')
      .on(t.userId, t.productId)
      .where(sql`${t.productId} is not null and ${t.revokedAt} is null`),
    uniqueIndex('ownerships_user_bundle_key')
      .on(t.userId, t.bundleId)
      .where(sql`${t.bundleId} is not null and ${t.revokedAt} is null`),
    index('ownerships_product_idx').on(t.productId),
    index('ownerships_source_idx').on(t.source),
  ],
);

/**
 * A counter per kind of public content ('catalog'), bumped in the transaction of every vendor edit:
 * each node polls it and drops its cached pages and search results when another node edited (ADR 040).
 */
export const contentVersions = pgTable('content_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changedAt: ts('changed_at').notNull().defaultNow(),
});

/** What search.sql was when this database last applied it (`applySearchSql`, ADR 068): one row. */
export const searchSqlApplied = pgTable(
  'search_sql_applied',
  {
    id: boolean('id').primaryKey().default(true),
    sourceSha256: text('source_sha256').notNull(),
    indexSha256: text('index_sha256').notNull(),
    functionNames: text('function_names').array().notNull(),
    appliedAt: ts('applied_at').notNull().defaultNow(),
  },
  (t) => [check('search_sql_applied_one_row', sql`${t.id}`)],
);

/** A row that belongs to a vendor and goes with it. */
export function vendorColumn() {
  return refColumn('vendor_id', () => vendors.id);
}

/** A row that belongs to a product and goes with it. */
export function productColumn() {
  return refColumn('product_id', () => products.id);
}
