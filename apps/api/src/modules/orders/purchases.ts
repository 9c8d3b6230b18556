// Use cases: a buyer's own purchases (one, the list) and the provider's customer portal.
import { ordersMessages, type Purchase } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf, type Cursors } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdByUrl } from '../catalog/index.ts';
import { loadPurchases, one } from './repository.ts';
import { rule } from './items.ts';

/** One of the buyer's own purchases, by checkout session or by id; 404 for anyone else's. */
export async function ownPurchase(
  deps: AppDeps,
  buyerId: string,
  by: { sessionId: string } | { id: string },
): Promise<Purchase> {
  const match = 'sessionId' in by ? sql`p.session_id = ${by.sessionId}` : sql`p.id = ${by.id}`;
  const [found] = await loadPurchases(
    deps.database.db,
    sql`${match} and p.buyer_id = ${buyerId}`,
    1,
  );
  if (!found) throw new AppError('not_found', ordersMessages.purchaseNotFound);
  return found;
}

/**
 * A purchase's place in a newest-first list: the buyer's, a vendor's sales, an affiliate's referrals.
 * One kind per list, so a cursor of one is refused by another.
 */
const PURCHASE_CURSORS = {
  buyer: cursorKind('purchases-buyer', [cursorField.time, cursorField.id]),
  sales: cursorKind('purchases-sales', [cursorField.time, cursorField.id]),
  referrals: cursorKind('purchases-referrals', [cursorField.time, cursorField.id]),
};
type PurchaseList = keyof typeof PURCHASE_CURSORS;

export const encodeCursor = (
  cursors: Cursors,
  list: PurchaseList,
  p: { createdAt: string | Date; id: string },
) => cursors.encode(PURCHASE_CURSORS[list], [new Date(p.createdAt).toISOString(), p.id]);

/** Newest first; abandoned checkouts (pending past expiry, cancelled) are left out of the list. */
export async function purchaseList(
  deps: AppDeps,
  buyerId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ purchases: Purchase[]; nextCursor: string | null }> {
  const found = await loadPurchases(
    deps.database.db,
    sql`p.buyer_id = ${buyerId} and p.status <> 'cancelled'
      and not (p.status = 'pending' and p.expires_at < now()) and ${afterCursor(deps.cursors, 'buyer', cursor)}`,
    limit + 1,
  );
  const { page, nextCursor } = pageOf(found, limit, (last) =>
    encodeCursor(deps.cursors, 'buyer', last),
  );
  return { purchases: page, nextCursor };
}

/** The condition for the page after `cursor` (newest first); 400 for a cursor we did not make. */
export function afterCursor(cursors: Cursors, list: PurchaseList, cursor: string | undefined): SQL {
  if (!cursor) return sql`true`;
  const [at, id] = cursors.decode(PURCHASE_CURSORS[list], cursor);
  return sql`(p.created_at, p.id) < (${at}::timestamptz, ${id})`;
}

export async function customerPortal(
  deps: AppDeps,
  buyerId: string,
  vendorUrl: string,
  origin: string,
): Promise<{ url: string }> {
  const vendorId = await vendorIdByUrl(deps.database.db, vendorUrl);
  const found =
    vendorId &&
    (await one<{ customer_id: string }>(
      deps.database.db,
      sql`select customer_id from purchases
          where buyer_id = ${buyerId} and vendor_id = ${vendorId}
            and subscription_id is not null and customer_id is not null
          order by created_at desc limit 1`,
    ));
  if (!found) throw rule(ordersMessages.noSubscriptions);
  return deps.payments.createPortal({
    customerId: found.customer_id,
    returnUrl: `${origin}/orders`,
  });
}

/* ---------------------------------------------------------------- vendor payout accounts */
