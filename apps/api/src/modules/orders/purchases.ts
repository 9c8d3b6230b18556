// Use cases: a buyer's own purchases (one, the list) and the provider's customer portal.
import { ordersMessages, type Purchase } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, type Cursors } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdByUrl } from '../catalog/index.ts';
import { loadPurchases, one } from './repository.ts';
import { rule } from './checkout.ts';

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

/** A purchase's place in a newest-first list (the buyer's, a vendor's sales, an affiliate's). */
const PURCHASE_CURSOR = cursorKind('purchase', [cursorField.time, cursorField.id]);

export const encodeCursor = (cursors: Cursors, p: { createdAt: string | Date; id: string }) =>
  cursors.encode(PURCHASE_CURSOR, [new Date(p.createdAt).toISOString(), p.id]);

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
      and not (p.status = 'pending' and p.expires_at < now()) and ${afterCursor(deps.cursors, cursor)}`,
    limit + 1,
  );
  const page = found.slice(0, limit);
  return {
    purchases: page,
    nextCursor: found.length > limit ? encodeCursor(deps.cursors, page[page.length - 1]!) : null,
  };
}

/** The condition for the page after `cursor` (newest first); 400 for a cursor we did not make. */
export function afterCursor(cursors: Cursors, cursor: string | undefined): SQL {
  if (!cursor) return sql`true`;
  const [at, id] = cursors.decode(PURCHASE_CURSOR, cursor);
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
