// Use case: a vendor's licence signing key, for the vendor to embed in their app (ADR 032).
import { licenceMessages as m } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdByUrl, vendorSummaries } from '../catalog/index.ts';
import { sql } from 'drizzle-orm';
import { publicKeyPemOfRaw, vendorKey } from './signing.ts';

export async function vendorPublicKey(deps: AppDeps, vendorUrl: string) {
  const db = deps.database.db;
  const vendorId = await vendorIdByUrl(db, vendorUrl);
  if (!vendorId) throw new AppError('not_found', m.vendorNotFound);
  const [key, names, retired] = await Promise.all([
    vendorKey(deps, db, vendorId),
    vendorSummaries(db, [vendorId]),
    db.execute<{
      key_id: string;
      public_key: string;
      created_at: Date | string;
      retired_at: Date | string;
    }>(sql`select key_id, public_key, created_at, retired_at from licence_vendor_keys
      where vendor_id = ${vendorId} and retired_at is not null order by retired_at desc`),
  ]);
  return {
    vendorUrl: names.get(vendorId)?.vendorUrl ?? vendorUrl,
    algorithm: 'Ed25519' as const,
    keyId: key.keyId,
    publicKeyPem: key.publicKeyPem,
    publicKeyRaw: key.publicKeyRaw,
    createdAt: key.createdAt.toISOString(),
    retiredKeys: retired.rows.map((r) => ({
      keyId: r.key_id,
      publicKeyPem: publicKeyPemOfRaw(r.public_key),
      publicKeyRaw: r.public_key,
      createdAt: new Date(r.created_at).toISOString(),
      retiredAt: new Date(r.retired_at).toISOString(),
    })),
  };
}
