import { vendorProductMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { vendorIdOfUser } from '../summaries.ts';

export const unknownProduct = () => new AppError('not_found', m.notFound);

/** The vendor the signed-in user runs; a user without a storefront is refused (403). */
export async function vendorOf(db: Tx, userId: string): Promise<string> {
  const vendorId = await vendorIdOfUser(db, userId);
  if (!vendorId) throw new AppError('forbidden', m.setUpStorefront);
  return vendorId;
}

/**
 * One writer per vendor at a time (a transaction-scoped advisory lock): slugs stay unique and two saves
 * of one product apply one after the other, never interleaved.
 */
export async function lockVendor(tx: Tx, vendorId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'vendor-products:' + vendorId}))`);
}

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
