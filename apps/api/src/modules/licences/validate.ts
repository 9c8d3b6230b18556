// Use case: the vendor's app asks whether its licence holds on this device; the answer is signed
// with the vendor's Ed25519 key so the app can trust a cached copy offline (ADR 032).
import {
  LICENCE_OFFLINE_GRACE_HOURS,
  type LicenceBinding,
  type LicenceStatus,
  type ValidateResponse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { preparedRows } from '../../db/prepared.ts';
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
  activation_binding: LicenceBinding | null;
  key_id: string | null;
  public_key: string | null;
  private_key: string | null;
  created_at: string | Date | null;
}

const GRACE_MS = LICENCE_OFFLINE_GRACE_HOURS * 3_600_000;

/**
 * One statement: the licence by its key hash, this fingerprint's activation, the vendor's signing
 * key, and (at most every few minutes) the activation's `last_seen_at`.
 */
const lookup = (hash: string, fingerprint: string) => sql`
  with found as (
    select l.id, l.key_hash, l.product_id, l.vendor_id, ${statusSql} as status, l.expires_at,
      a.id as activation_id, a.binding as activation_binding
    from licences l
    left join licence_activations a on a.licence_id = l.id and a.fingerprint = ${fingerprint}
    where l.key_hash = ${hash}
  ), seen as (
    update licence_activations set last_seen_at = now()
    where id = (select activation_id from found)
      -- At most every 5 minutes: validation is a read, not a write per call.
      and last_seen_at < now() - interval '5 minutes'
  )
  select f.id, f.key_hash, f.product_id, f.vendor_id, f.status, f.expires_at, f.activation_binding,
    k.key_id, k.public_key, k.private_key, k.created_at
  from found f left join licence_vendor_keys k on k.vendor_id = f.vendor_id`;

export async function validate(
  deps: AppDeps,
  address: string,
  body: { key: string; fingerprint: string; nonce?: string | undefined },
): Promise<ValidateResponse> {
  const hash = hashOfTypedKey(body.key);
  await consumeLicenceLimits(deps, address, hash);
  const row = (await preparedRows<Row>(deps.database, lookup(hash, body.fingerprint)))[0];
  const now = Date.now();
  if (!row || !safeEqual(row.key_hash, hash)) {
    // Sign a throw-away answer of the same shape: a key that opens nothing costs what one that does.
    signAnswer(decoyKey, answerOf(null, body, now, 'decoy'));
    throw invalidKey();
  }
  const key =
    cachedVendorKey(deps, row.vendor_id, row) ??
    (await vendorKey(deps, deps.database.db, row.vendor_id));
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
