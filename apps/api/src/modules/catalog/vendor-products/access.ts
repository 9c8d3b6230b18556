import { vendorProductMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { lockOwned } from '../vendor-edits.ts';

export const unknownProduct = () => new AppError('not_found', m.notFound);

type OwnedProductRow = { id: string; is_active: boolean; published_at: Date | string | null };

/**
 * The product, locked for this write, when this vendor owns it (404 otherwise: another vendor's
 * product does not exist); with `baseUpdatedAt`, 409 when it changed since.
 */
export function ownedProduct(
  tx: Tx,
  vendorId: string,
  productId: string,
  baseUpdatedAt?: string,
): Promise<OwnedProductRow> {
  return lockOwned<OwnedProductRow>(
    tx,
    'products',
    sql`id, is_active, published_at`,
    { vendorId, id: productId, baseUpdatedAt },
    { missing: unknownProduct, conflict: m.editConflict },
  );
}
