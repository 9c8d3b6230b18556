import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { products, vendorColumn } from '../catalog/tables.ts';
import { purchases } from '../orders/tables.ts';
import { userColumn } from '../users/tables.ts';
import { idColumn, refColumn, ts } from '../../db/columns.ts';

const bindings = ['metatrader_account', 'ninjatrader_machine', 'device'] as const;

/**
 * What an app product's licences allow (ADR 032). A product without a row issues licences with the
 * defaults: 3 activations, any binding preset.
 */
export const licenceProducts = pgTable(
  'licence_products',
  {
    productId: text('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    maxActivations: integer('max_activations').notNull().default(3),
    /** The one preset activations must use; null accepts any. */
    binding: text('binding', { enum: bindings }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('licence_products_max_activations_check', sql`${t.maxActivations} between 1 and 100`),
  ],
);

/**
 * One licence per app product of a purchase. The key is stored twice: SHA-256 for lookup, and
 * sealed (AES-256-GCM) so the buyer can see it again; never in plain text.
 */
export const licences = pgTable(
  'licences',
  {
    id: idColumn(),
    /** Null for a licence granted outside a purchase (the demo's). */
    purchaseId: text('purchase_id').references(() => purchases.id, { onDelete: 'cascade' }),
    userId: userColumn(),
    productId: refColumn('product_id', () => products.id, 'restrict'),
    vendorId: vendorColumn(),
    keyHash: text('key_hash').notNull(),
    keySealed: text('key_sealed').notNull(),
    /** `expired` is stored once the subscription ended; a passed `expires_at` reads as expired too. */
    status: text('status', { enum: ['active', 'expired', 'revoked'] })
      .notNull()
      .default('active'),
    expiresAt: ts('expires_at'),
    endedReason: text('ended_reason'),
    /** The product's terms when the licence was issued. */
    maxActivations: integer('max_activations').notNull(),
    binding: text('binding', { enum: bindings }),
    resetsUsed: integer('resets_used').notNull().default(0),
    /**
     * The signing key a rotation pinned this licence to (ADR 044); null signs with the vendor's
     * current key.
     */
    signingKeyId: text('signing_key_id').references((): AnyPgColumn => licenceVendorKeys.keyId, {
      onDelete: 'set null',
    }),
    issuedAt: ts('issued_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('licences_key_hash_key').on(t.keyHash),
    uniqueIndex('licences_purchase_product_key').on(t.purchaseId, t.productId),
    index('licences_user_idx').on(t.userId, t.issuedAt),
    index('licences_product_idx').on(t.productId, t.status),
  ],
);

/** The devices (trading accounts, machines) a licence is active on. */
export const licenceActivations = pgTable(
  'licence_activations',
  {
    id: idColumn(),
    licenceId: refColumn('licence_id', () => licences.id),
    binding: text('binding', { enum: bindings }).notNull(),
    fingerprint: text('fingerprint').notNull(),
    name: text('name').notNull(),
    activatedAt: ts('activated_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('licence_activations_fingerprint_key').on(t.licenceId, t.fingerprint)],
);

/** What happened to a licence, for the buyer and support. Never holds a key. */
export const licenceEvents = pgTable(
  'licence_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    licenceId: refColumn('licence_id', () => licences.id),
    type: text('type', {
      enum: ['issued', 'activated', 'deactivated', 'reset', 'expiry_changed', 'revoked', 'expired'],
    }).notNull(),
    detail: text('detail').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('licence_events_licence_idx').on(t.licenceId, t.at)],
);

/**
 * Each vendor's Ed25519 key pairs for signing validation answers: the current one (made when first
 * needed) and the ones rotation retired, which keep signing for the licences pinned to them (ADR 044).
 */
export const licenceVendorKeys = pgTable(
  'licence_vendor_keys',
  {
    keyId: text('key_id').primaryKey(),
    vendorId: vendorColumn(),
    /** The raw 32-byte public key, base64. */
    publicKey: text('public_key').notNull(),
    /** PKCS#8 PEM, sealed with AES-256-GCM (`platform/seal.ts`). */
    privateKey: text('private_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    retiredAt: ts('retired_at'),
  },
  (t) => [
    uniqueIndex('licence_vendor_keys_current_key')
      .on(t.vendorId)
      .where(sql`${t.retiredAt} is null`),
    index('licence_vendor_keys_vendor_idx').on(t.vendorId, t.createdAt),
  ],
);
