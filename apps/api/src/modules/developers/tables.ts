import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, ts } from '../../db/columns.ts';
import { vendorColumn } from '../catalog/tables.ts';
import { users } from '../users/tables.ts';

/**
 * A vendor's API keys (ADR 057). The key itself is never stored: `lookup` (the id part of the key)
 * finds the row, and the SHA-256 of the whole key is compared in constant time. Keys carry 256
 * random bits, so a plain hash is enough (no password stretching).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    vendorId: vendorColumn(),
    createdBy: refColumn('created_by', () => users.id),
    name: text('name').notNull(),
    /** `live` or `test`: a key works only in the environment kind that made it. */
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    lookup: text('lookup').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_lookup_idx').on(t.lookup),
    index('api_keys_vendor_idx')
      .on(t.vendorId)
      .where(sql`${t.revokedAt} is null`),
  ],
);
