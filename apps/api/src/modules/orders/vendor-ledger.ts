// Reads of one vendor's ledger for analytics (ADR 043): series and per-item totals from the daily
// rollup, and payment sets for the CSV export. The use case lives in the analytics module.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rows } from './repository.ts';
import { keptSums } from './sale-money.ts';

/** A vendor's ledger over whole UTC days, both counted (`YYYY-MM-DD`), maybe for one item. */
export interface VendorLedgerRange {
  vendorId: string;
  from: string;
  to: string;
  itemId?: string | null;
}

/** Integer minor units of one currency; gross - refunds = fee + affiliate + net. */
export interface LedgerFigures {
  gross: number;
  refunds: number;
  fee: number;
  affiliate: number;
  net: number;
  sales: number;
  refundCount: number;
}

const figures = sql`sum(gross)::int8 as gross, sum(refunds)::int8 as refunds, sum(fee)::int8 as fee,
  sum(affiliate)::int8 as affiliate, sum(net)::int8 as net, sum(sales)::int8 as sales,
  sum(refund_count)::int8 as refund_count`;

type FigureRow = Record<keyof Omit<LedgerFigures, 'refundCount'> | 'refund_count', string | number>;

const toFigures = (r: FigureRow): LedgerFigures => ({
  gross: Number(r.gross),
  refunds: Number(r.refunds),
  fee: Number(r.fee),
  affiliate: Number(r.affiliate),
  net: Number(r.net),
  sales: Number(r.sales),
  refundCount: Number(r.refund_count),
});

function rangeWhere(range: VendorLedgerRange): SQL {
  return sql`vendor_id = ${range.vendorId} and day between ${range.from}::date and ${range.to}::date
    ${range.itemId ? sql`and item_id = ${range.itemId}` : sql``}`;
}

/** Figures per bucket (`period`: the bucket's first day) and currency; buckets without money are absent. */
export async function vendorLedgerSeries(
  db: Tx,
  range: VendorLedgerRange,
  interval: 'day' | 'week' | 'month',
): Promise<Array<LedgerFigures & { period: string; currency: string }>> {
  const found = await rows<FigureRow & { period: string; currency: string }>(
    db,
    sql`select to_char(date_trunc(${interval}, day::timestamp), 'YYYY-MM-DD') as period, currency, ${figures}
      from vendor_sales_daily where ${rangeWhere(range)}
      group by 1, 2 order by 1, 2`,
  );
  return found.map((r) => ({ period: r.period, currency: r.currency, ...toFigures(r) }));
}

/** Figures per item (product or bundle) and currency over the range. */
export async function vendorLedgerItems(
  db: Tx,
  range: VendorLedgerRange,
): Promise<
  Array<LedgerFigures & { itemType: 'product' | 'bundle'; itemId: string; currency: string }>
> {
  const found = await rows<
    FigureRow & { item_type: 'product' | 'bundle'; item_id: string; currency: string }
  >(
    db,
    sql`select item_type, item_id, currency, ${figures}
      from vendor_sales_daily where ${rangeWhere(range)}
      group by 1, 2, 3`,
  );
  return found.map((r) => ({
    itemType: r.item_type,
    itemId: r.item_id,
    currency: r.currency,
    ...toFigures(r),
  }));
}

/** One payment or refund of the vendor's: the set of ledger lines written under one reference. */
export interface VendorLedgerSet {
  at: Date;
  kind: 'sale' | 'refund';
  purchaseId: string;
  itemType: 'product' | 'bundle';
  itemId: string;
  buyerId: string;
  /** The purchase's status now (`paid`, `refunded` …). */
  status: string;
  currency: string;
  /** Signed as money moved: a refund's amounts are negative. gross = fee + affiliate + net. */
  gross: number;
  fee: number;
  affiliate: number;
  net: number;
}

/** The vendor's payment sets in the range, oldest first; at most `limit`. */
export async function vendorLedgerSets(
  db: Tx,
  range: VendorLedgerRange,
  limit: number,
): Promise<VendorLedgerSet[]> {
  // Each set has one line on the vendor's account (its share, or the reversal of it), found through
  // ledger_entries_vendor_idx; the set's other lines come by (purchase, reference).
  const found = await rows<{
    at: Date;
    entry_type: string;
    purchase_id: string;
    item_type: 'product' | 'bundle';
    item_id: string;
    buyer_id: string;
    status: string;
    currency: string;
    gross: string;
    fees: string;
    affiliate: string;
    net: string;
  }>(
    db,
    sql`select v.created_at as at, v.entry_type, v.purchase_id, p.item_type,
        coalesce(p.product_id, p.bundle_id) as item_id, p.buyer_id, p.status, v.currency,
        s.gross, s.fees, s.affiliate, s.net
      from ledger_entries v
      join purchases p on p.id = v.purchase_id
      cross join lateral (
        select coalesce(-sum(l.amount) filter (where l.account_type = 'clearing'), 0)::int8 as gross,
          ${keptSums}
        from ledger_entries l where l.purchase_id = v.purchase_id and l.payment_ref = v.payment_ref
      ) s
      where v.account_type = 'vendor' and v.account_id = ${range.vendorId}
        and v.created_at >= (${range.from}::date::timestamp at time zone 'UTC')
        and v.created_at < ((${range.to}::date + 1)::timestamp at time zone 'UTC')
        ${range.itemId ? sql`and coalesce(p.product_id, p.bundle_id) = ${range.itemId}` : sql``}
      order by v.created_at, v.id
      limit ${limit}`,
  );
  return found.map((r) => ({
    at: new Date(r.at),
    kind: r.entry_type === 'refund_reversal' ? 'refund' : 'sale',
    purchaseId: r.purchase_id,
    itemType: r.item_type,
    itemId: r.item_id,
    buyerId: r.buyer_id,
    status: r.status,
    currency: r.currency,
    gross: Number(r.gross),
    fee: Number(r.fees),
    affiliate: Number(r.affiliate),
    net: Number(r.net),
  }));
}
