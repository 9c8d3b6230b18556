// Use cases: the PDF receipt of a buyer's order and the invoice copy of a vendor's sale (ADR 060).
// Ownership is the query's: another buyer's order or another vendor's sale is simply not found.
import { ordersMessages } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { sellerDetailsOf } from '../catalog/index.ts';
import { billingOf, emailIn } from '../users/index.ts';
import { receiptPdf } from './receipt-pdf.ts';
import { loadPurchases, one } from './repository.ts';

const notFound = () => new AppError('not_found', ordersMessages.purchaseNotFound);

async function document(deps: AppDeps, match: ReturnType<typeof sql>, copy: 'buyer' | 'vendor') {
  const db = deps.database.db;
  // Only paid orders have a receipt; a checkout never paid is not a sale.
  const owners = await one<{ id: string; buyer_id: string; vendor_id: string }>(
    db,
    sql`select id, buyer_id, vendor_id from purchases p where ${match} and p.paid_at is not null`,
  );
  if (!owners) throw notFound();
  const [purchase] = await loadPurchases(db, sql`p.id = ${owners.id}`, 1);
  const seller = await sellerDetailsOf(db, owners.vendor_id);
  if (!purchase || !seller) throw notFound();
  const billing = await billingOf(db, owners.buyer_id);
  const email = (await emailIn(db, owners.buyer_id)) ?? '';
  const pdf = await receiptPdf({
    purchase,
    seller,
    buyer: { ...billing, email },
    copy,
    orderUrl: `${publicOrigin(deps.config)}/orders/${purchase.id}`,
  });
  return { pdf, filename: `receipt-${purchase.receiptNumber ?? purchase.id}.pdf` };
}

export const buyerReceipt = (deps: AppDeps, buyerId: string, id: string) =>
  document(deps, sql`p.id = ${id} and p.buyer_id = ${buyerId}`, 'buyer');

export const vendorInvoice = (deps: AppDeps, vendorId: string, id: string) =>
  document(deps, sql`p.id = ${id} and p.vendor_id = ${vendorId}`, 'vendor');
