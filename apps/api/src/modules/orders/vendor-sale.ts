// Use case: one of a vendor's sales with its payments, refunds and ledger lines.
import {
  vendorSalesMessages,
  type VendorRefund,
  type VendorSale,
  type VendorSaleDetail,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { rows } from './repository.ts';
import { salesWhere } from './vendor-sales.ts';

export interface VendorRefundRow {
  id: string;
  purchase_id: string;
  payment_ref: string;
  amount: number;
  currency: string;
  target_total: number;
  reason: string;
  request_hash: string;
  status: VendorRefund['status'];
  failure: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export const refundView = (r: VendorRefundRow): VendorRefund => ({
  id: r.id,
  amount: { amount: r.amount, currency: r.currency },
  reason: r.reason,
  status: r.status,
  failure: r.failure,
  requestedAt: iso(r.created_at),
  completedAt: r.completed_at ? iso(r.completed_at) : null,
});

export const saleNotFound = () => new AppError('not_found', vendorSalesMessages.saleNotFound);

/** The caller's sale by id; 404 for another vendor's, or a checkout never paid. */
export async function vendorSale(
  deps: AppDeps,
  vendorId: string,
  purchaseId: string,
): Promise<VendorSaleDetail> {
  const db = deps.database.db;
  return saleDetail(db, vendorId, purchaseId);
}

export async function saleDetail(
  db: Tx,
  vendorId: string,
  purchaseId: string,
): Promise<VendorSaleDetail> {
  const [sale] = await salesWhere(
    db,
    sql`p.id = ${purchaseId} and p.vendor_id = ${vendorId} and p.paid_at is not null`,
    1,
  );
  if (!sale) throw saleNotFound();
  const currency = sale.total.currency;
  const money = (amount: number) => ({ amount, currency });
  const lines = await rows<{
    payment_ref: string;
    entry_type: string;
    account_type: 'clearing' | 'platform' | 'vendor' | 'affiliate';
    amount: number;
    created_at: Date | string;
  }>(
    db,
    sql`select payment_ref, entry_type, account_type, amount, created_at from ledger_entries
        where purchase_id = ${purchaseId} order by created_at, payment_ref, entry_type`,
  );
  const refunds = await rows<VendorRefundRow>(
    db,
    sql`select * from vendor_refunds where purchase_id = ${purchaseId} order by created_at desc`,
  );
  const sum = (pick: (l: (typeof lines)[number]) => boolean) =>
    lines.filter(pick).reduce((s, l) => s + l.amount, 0);
  const payments = lines
    .filter((l) => l.entry_type === 'sale' && l.account_type === 'clearing')
    .map((l) => ({
      ref: l.payment_ref,
      amount: money(-l.amount),
      refunded: money(
        sum(
          (r) =>
            r.account_type === 'clearing' && r.payment_ref.startsWith(`refund:${l.payment_ref}:`),
        ),
      ),
      at: iso(l.created_at),
    }));
  return {
    ...sale,
    payments,
    refunds: refunds.map(refundView),
    // The totals are the sale's money as the list shows it: one presenter (sale-money.ts).
    ledger: {
      ...sale.money,
      lines: lines.map((l) => ({
        paymentRef: l.payment_ref,
        entryType: l.entry_type,
        account: l.account_type,
        amount: money(l.amount),
        at: iso(l.created_at),
      })),
    },
  };
}

/**
 * One of the vendor's purchases as the sales list shows it, paid or still in its free trial; null
 * when it is not theirs. For the vendor's webhooks (ADR 057), read in the delivering transaction.
 */
export async function vendorSaleSummary(
  db: Tx,
  vendorId: string,
  purchaseId: string,
): Promise<VendorSale | null> {
  const [sale] = await salesWhere(db, sql`p.id = ${purchaseId} and p.vendor_id = ${vendorId}`, 1);
  return sale ?? null;
}
