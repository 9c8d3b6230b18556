import { vendorBundleMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { lockOwned } from '../vendor-edits.ts';

export const unknownBundle = () => new AppError('not_found', m.notFound);

export type OwnedBundleRow = {
  id: string;
  is_active: boolean;
  price_id: string | null;
  image_key: string | null;
};

/**
 * The bundle, locked for this write, when this vendor owns it (404 otherwise: another's does not
 * exist); with `baseUpdatedAt`, 409 when it changed since.
 */
export function ownedBundle(
  tx: Tx,
  vendorId: string,
  bundleId: string,
  baseUpdatedAt?: string,
): Promise<OwnedBundleRow> {
  return lockOwned<OwnedBundleRow>(
    tx,
    'bundles',
    sql`id, is_active, price_id, image_key`,
    { vendorId, id: bundleId, baseUpdatedAt },
    { missing: unknownBundle, conflict: m.editConflict },
  );
}
