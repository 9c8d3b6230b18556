// Use case: a vendor's sales with their buyers, newest first.
import type { SaleFilter, VendorSale } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import * as users from '../users/index.ts';
import { pageOf } from '../../platform/cursor.ts';
import { afterCursor, encodeCursor } from './purchases.ts';
import { loadWithBuyers } from './repository.ts';
import { latestPayments, refundableOf } from './refund-state.ts';
import { saleMoneyOf, saleMoneyView } from './sale-money.ts';

/** Purchases with their buyers' contacts: the vendor sees who to serve, not their other data. */
export async function salesWhere(db: Tx, where: SQL, limit: number): Promise<VendorSale[]> {
  const found = await loadWithBuyers(db, where, limit);
  const contacts = await users.contactsOf(db, [...new Set(found.map((p) => p.buyerId))]);
  const ids = found.map((p) => p.purchase.id);
  const payments = await latestPayments(db, ids);
  const figures = await saleMoneyOf(db, ids);
  return found.map(({ purchase, buyerId }) => {
    const pay = payments.get(purchase.id);
    const money = (amount: number) => ({ amount, currency: purchase.total.currency });
    return {
      ...purchase,
      buyer: contacts.get(buyerId) ?? { email: '', username: null },
      money: saleMoneyView(figures.get(purchase.id)!, purchase.total.currency),
      pendingRefund: money(pay?.pending ?? 0),
      refundable: money(
        refundableOf({ status: purchase.status, disputed_at: purchase.disputedAt }, pay),
      ),
    };
  });
}

/** The sales list's filters, as SQL on `purchases p`. */
export interface SalesFilter {
  status?: SaleFilter | undefined;
  productId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** A purchase id (a download's trace id, ADR 053) or a receipt number, exactly. */
  q?: string | undefined;
}

function filterSql(f: SalesFilter): SQL {
  const parts: SQL[] = [];
  const refundedSome = sql`exists (select 1 from ledger_entries l where l.purchase_id = p.id
    and l.account_type = 'clearing' and l.entry_type = 'refund_reversal' and l.payment_ref like 'refund:%')`;
  if (f.status === 'paid')
    parts.push(sql`p.status = 'paid' and p.revoked_at is null and p.disputed_at is null`);
  if (f.status === 'refunded') parts.push(sql`p.status = 'refunded'`);
  if (f.status === 'partially_refunded') parts.push(sql`p.status = 'paid' and ${refundedSome}`);
  if (f.status === 'revoked') parts.push(sql`p.revoked_at is not null`);
  if (f.status === 'disputed') parts.push(sql`p.disputed_at is not null`);
  if (f.productId) parts.push(sql`p.product_id = ${f.productId}`);
  if (f.from) parts.push(sql`p.paid_at >= ${f.from}::timestamptz`);
  if (f.to) parts.push(sql`p.paid_at < ${f.to}::timestamptz`);
  if (f.q) parts.push(sql`(p.id = ${f.q} or p.receipt_number = ${f.q})`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** Paid sales (and what became of them); checkouts that were never paid are not sales. */
export async function vendorSales(
  deps: AppDeps,
  vendorId: string,
  limit: number,
  cursor: string | undefined,
  filter: SalesFilter = {},
): Promise<{ sales: VendorSale[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const found = await salesWhere(
    db,
    sql`p.vendor_id = ${vendorId} and p.paid_at is not null and ${afterCursor(deps.cursors, 'sales', cursor)}
      and ${filterSql(filter)}`,
    limit + 1,
  );
  const { page, nextCursor } = pageOf(found, limit, (last) =>
    encodeCursor(deps.cursors, 'sales', last),
  );
  return { sales: page, nextCursor };
}
