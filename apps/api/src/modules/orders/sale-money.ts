// A sale's money, read from its ledger lines: the one presenter behind the vendor's sales list, the
// sale's page and the CSV export (issue 27), with the sums the analytics rollup keeps (migration 0033).
import type { SaleMoney } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rows } from './repository.ts';

/** Figures in minor units of the sale's currency. */
export type SaleFigures = { [K in keyof SaleMoney]: number };

/**
 * What each account kept, over ledger lines `l` grouped as the caller likes: fees, affiliate share and
 * the vendor's net, each after the reversals among those lines.
 */
export const keptSums = sql`coalesce(sum(l.amount) filter (where l.account_type = 'platform'), 0)::int8 as fees,
  coalesce(sum(l.amount) filter (where l.account_type = 'affiliate'), 0)::int8 as affiliate,
  coalesce(sum(l.amount) filter (where l.account_type = 'vendor'), 0)::int8 as net`;

/** Gross (every payment charged) and refunded (returned through refunds, not disputes) over `l`. */
const chargedSums = sql`coalesce(-sum(l.amount) filter (where l.account_type = 'clearing'
    and l.entry_type = 'sale'), 0)::int8 as gross,
  coalesce(sum(l.amount) filter (where l.account_type = 'clearing' and l.entry_type = 'refund_reversal'
    and l.payment_ref like 'refund:%'), 0)::int8 as refunded`;

/** The money of each purchase named (all zero for one without ledger lines: nothing was charged). */
export async function saleMoneyOf(
  tx: Tx,
  purchaseIds: string[],
): Promise<Map<string, SaleFigures>> {
  const out = new Map<string, SaleFigures>(
    purchaseIds.map((id) => [id, { gross: 0, refunded: 0, fees: 0, affiliate: 0, net: 0 }]),
  );
  if (!purchaseIds.length) return out;
  const ids: SQL = sql.join(
    purchaseIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const found = await rows<{ purchase_id: string } & Record<keyof SaleFigures, string | number>>(
    tx,
    sql`select l.purchase_id, ${chargedSums}, ${keptSums}
      from ledger_entries l where l.purchase_id in (${ids}) group by l.purchase_id`,
  );
  for (const r of found)
    out.set(r.purchase_id, {
      gross: Number(r.gross),
      refunded: Number(r.refunded),
      fees: Number(r.fees),
      affiliate: Number(r.affiliate),
      net: Number(r.net),
    });
  return out;
}

/** The figures as money of one currency. */
export function saleMoneyView(f: SaleFigures, currency: string): SaleMoney {
  const money = (amount: number) => ({ amount, currency });
  return {
    gross: money(f.gross),
    refunded: money(f.refunded),
    fees: money(f.fees),
    affiliate: money(f.affiliate),
    net: money(f.net),
  };
}
