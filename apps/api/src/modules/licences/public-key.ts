// Use case: a vendor's licence signing key, for the vendor to embed in their app (ADR 032).
import { licenceMessages as m } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdByUrl, vendorSummaries } from '../catalog/index.ts';
import { vendorKey } from './signing.ts';

export async function vendorPublicKey(deps: AppDeps, vendorUrl: string) {
  const db = deps.database.db;
  const vendorId = await vendorIdByUrl(db, vendorUrl);
  if (!vendorId) throw new AppError('not_found', m.vendorNotFound);
  const [key, names] = await Promise.all([
    vendorKey(deps, db, vendorId),
    vendorSummaries(db, [vendorId]),
  ]);
  return {
    vendorUrl: names.get(vendorId)?.vendorUrl ?? vendorUrl,
    algorithm: 'Ed25519' as const,
    keyId: key.keyId,
    publicKeyPem: key.publicKeyPem,
    publicKeyRaw: key.publicKeyRaw,
    createdAt: key.createdAt.toISOString(),
  };
}
