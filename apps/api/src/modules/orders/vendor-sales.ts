// Use case: a vendor's sales with their buyers, newest first.
import { ordersMessages, type VendorSale } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdOfUser } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { afterCursor, encodeCursor } from './purchases.ts';
import { loadWithBuyers } from './repository.ts';

/** The caller's vendor id; 403 for anyone who does not sell. */
export async function sellingVendor(db: Tx, userId: string): Promise<string> {
  const vendorId = await vendorIdOfUser(db, userId);
  if (!vendorId) throw new AppError('forbidden', ordersMessages.revokeVendorsOnly);
  return vendorId;
}

/** Purchases with their buyers' contacts: the vendor sees who to serve, not their other data. */
export async function salesWhere(db: Tx, where: SQL, limit: number): Promise<VendorSale[]> {
  const found = await loadWithBuyers(db, where, limit);
  const contacts = await users.contactsOf(db, [...new Set(found.map((p) => p.buyerId))]);
  return found.map(({ purchase, buyerId }) => ({
    ...purchase,
    buyer: contacts.get(buyerId) ?? { email: '', username: null },
  }));
}

/** Paid sales (and what became of them); checkouts that were never paid are not sales. */
export async function vendorSales(
  deps: AppDeps,
  userId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ sales: VendorSale[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const vendorId = await sellingVendor(db, userId);
  const found = await salesWhere(
    db,
    sql`p.vendor_id = ${vendorId} and p.paid_at is not null and ${afterCursor(cursor)}`,
    limit + 1,
  );
  const page = found.slice(0, limit);
  return {
    sales: page,
    nextCursor: found.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}
