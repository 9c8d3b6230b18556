// Use case: the vendor's app asks whether its licence holds on this device; the answer is signed
// with the vendor's Ed25519 key so the app can trust a cached copy offline (ADR 032).
import {
  LICENCE_OFFLINE_GRACE_HOURS,
  type LicenceBinding,
  type LicenceStatus,
  type ValidateResponse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../../deps.ts';
import { safeEqual } from '../../lib.ts';
import { hashOfTypedKey, invalidKey } from './keys.ts';
import { appSummary, consumeLicenceLimits } from './public-api.ts';
import { statusSql } from './queries.ts';
import { cachedVendorKey, decoyKey, signAnswer, vendorKey } from './signing.ts';

interface Row extends Record<string, unknown> {
  id: string;
  key_hash: string;
  product_id: string;
  vendor_id: string;
  status: LicenceStatus;
  expires_at: string | Date | null;
  activation_id: string | null;
  activation_binding: LicenceBinding | null;
  stale: boolean | null;
  key_id: string | null;
  public_key: string | null;
  private_key: string | null;
  created_at: string | Date | null;
}

const GRACE_MS = LICENCE_OFFLINE_GRACE_HOURS * 3_600_000;

/**
 * One statement, a read: the licence by its key hash, this fingerprint's activation (and whether its
 * `last_seen_at` is over 5 minutes old) and the signing key: the one a rotation pinned the licence to,
 * else the vendor's current one (ADR 044). (Writing `last_seen_at` in
 * the same statement, as a data-modifying CTE, halved the lookups PostgreSQL answered per second.)
 */
const lookup = (hash: string, fingerprint: string) => sql`
  select l.id, l.key_hash, l.product_id, l.vendor_id, ${statusSql} as status, l.expires_at,
    a.id as activation_id, a.binding as activation_binding,
    a.last_seen_at < now() - interval '5 minutes' as stale,
    k.key_id, k.public_key, k.private_key, k.created_at
  from licences l
  left join licence_activations a on a.licence_id = l.id and a.fingerprint = ${fingerprint}
  left join licence_vendor_keys k on k.key_id = coalesce(l.signing_key_id,
    (select c.key_id from licence_vendor_keys c where c.vendor_id = l.vendor_id and c.retired_at is null))
  where l.key_hash = ${hash}`;

/**
 * Built once (parameters: fingerprint, hash) and run as a named prepared statement on PostgreSQL
 * (ADR 014; unnamed on PGlite, whose connections share one session): the hottest public read.
 */
const LOOKUP_TEXT = new PgDialect().sqlToQuery(lookup('', '')).sql;

export async function validate(
  deps: AppDeps,
  address: string,
  body: { key: string; fingerprint: string; nonce?: string | undefined },
): Promise<ValidateResponse> {
  const hash = hashOfTypedKey(body.key);
  await consumeLicenceLimits(deps, address, hash);
  const row = (
    await deps.database.pool.query<Row>({
      text: LOOKUP_TEXT,
      values: [body.fingerprint, hash],
      ...(deps.database.prepared ? { name: 'licences_validate' } : {}),
    })
  ).rows[0];
  const now = Date.now();
  if (!row || !safeEqual(row.key_hash, hash)) {
    // Sign a throw-away answer of the same shape: a key that opens nothing costs what one that does.
    signAnswer(decoyKey, answerOf(null, body, now, 'decoy'));
    throw invalidKey();
  }
  // Validation is a read; a device's `last_seen_at` moves at most every 5 minutes.
  if (row.stale)
    await deps.database.db.execute(sql`update licence_activations set last_seen_at = now()
      where id = ${row.activation_id}`);
  const key =
    cachedVendorKey(deps, row) ?? (await vendorKey(deps, deps.database.db, row.vendor_id));
  const summary = await appSummary(deps, deps.database.db, row.product_id);
  const answer = answerOf({ row, summary }, body, now, key.keyId);
  return { ...answer, signature: signAnswer(key.privateKey, answer) };
}

function answerOf(
  found: { row: Row; summary: Awaited<ReturnType<typeof appSummary>> } | null,
  body: { fingerprint: string; nonce?: string | undefined },
  now: number,
  keyId: string,
): Omit<ValidateResponse, 'signature'> {
  const row = found?.row;
  const expiresAt = row?.expires_at ? new Date(row.expires_at).getTime() : null;
  const status = row?.status ?? 'revoked';
  const activated = Boolean(row?.activation_binding);
  // An answer about a licence that ends sooner may not be trusted past its end.
  const validUntil =
    status === 'active' && expiresAt !== null
      ? Math.min(now + GRACE_MS, expiresAt)
      : now + GRACE_MS;
  return {
    valid: status === 'active' && activated,
    status,
    expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    licenceId: row?.id ?? '',
    product: found?.summary.product ?? { id: '', slug: '', title: '' },
    vendor: { vendorUrl: found?.summary.vendor.vendorUrl ?? '' },
    device: {
      fingerprint: body.fingerprint,
      activated,
      binding: row?.activation_binding ?? null,
    },
    nonce: body.nonce ?? null,
    issuedAt: new Date(now).toISOString(),
    validUntil: new Date(validUntil).toISOString(),
    algorithm: 'Ed25519',
    keyId,
  };
}
