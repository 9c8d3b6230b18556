import { vendorProductMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';

export const unknownProduct = () => new AppError('not_found', m.notFound);

/** The product, when this vendor owns it (404 otherwise: another vendor's product does not exist). */
export async function ownedProduct(
  tx: Tx,
  vendorId: string,
  productId: string,
): Promise<{ id: string; is_active: boolean; published_at: Date | string | null }> {
  const { rows } = await tx.execute<{
    id: string;
    is_active: boolean;
    published_at: Date | string | null;
  }>(
    sql`select id, is_active, published_at from products where id = ${productId} and vendor_id = ${vendorId}`,
  );
  if (!rows[0]) throw unknownProduct();
  return rows[0];
}
