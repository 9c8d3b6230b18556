// Use case: a vendor's customers (buyers with paid sales), most recent first, searchable.
import type { VendorCustomer } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf, timeKey, type Cursors } from '../../platform/cursor.ts';
import * as users from '../users/index.ts';
import { rows } from './repository.ts';

/** A customer's place: when they last paid and their id (newest first). */
const CUSTOMER_CURSOR = cursorKind('customer', [cursorField.time, cursorField.id]);

function afterCustomer(cursors: Cursors, cursor: string | undefined): SQL {
  if (!cursor) return sql`true`;
  const [at, buyerId] = cursors.decode(CUSTOMER_CURSOR, cursor);
  return sql`(max(p.paid_at), p.buyer_id) < (${at}::timestamptz, ${buyerId})`;
}

/**
 * Buyers with how many paid purchases they made, what they paid less refunds (per currency) and
 * when. A search looks among this vendor's own buyers only.
 */
export async function vendorCustomers(
  deps: AppDeps,
  vendorId: string,
  q: { limit: number; cursor?: string | undefined; q?: string | undefined },
): Promise<{ customers: VendorCustomer[]; nextCursor: string | null }> {
  const db = deps.database.db;
  // Checked first: a forged cursor is a 400 even when the search finds nobody.
  const after = afterCustomer(deps.cursors, q.cursor);
  let among = sql`true`;
  if (q.q) {
    const buyers = await rows<{ buyer_id: string }>(
      db,
      sql`select distinct buyer_id from purchases where vendor_id = ${vendorId} and paid_at is not null`,
    );
    const ids = await users.idsMatching(
      db,
      buyers.map((b) => b.buyer_id),
      q.q,
    );
    if (!ids.length) return { customers: [], nextCursor: null };
    among = sql`p.buyer_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`;
  }
  const found = await rows<{
    buyer_id: string;
    purchases: number;
    first: Date;
    last: Date;
    last_key: string;
  }>(
    db,
    sql`select p.buyer_id, count(*)::int as purchases, min(p.paid_at) as first, max(p.paid_at) as last,
        ${timeKey(sql`max(p.paid_at)`)} as last_key
      from purchases p
      where p.vendor_id = ${vendorId} and p.paid_at is not null and ${among}
      group by p.buyer_id
      having ${after}
      order by max(p.paid_at) desc, p.buyer_id desc
      limit ${q.limit + 1}`,
  );
  const { page, nextCursor } = pageOf(found, q.limit, (last) =>
    deps.cursors.encode(CUSTOMER_CURSOR, [last.last_key, last.buyer_id]),
  );
  const ids = page.map((r) => r.buyer_id);
  const contacts = await users.contactsOf(db, ids);
  const spent = ids.length
    ? await rows<{ buyer_id: string; currency: string; amount: number }>(
        db,
        sql`select p.buyer_id, l.currency, (-sum(l.amount))::int as amount
          from ledger_entries l join purchases p on p.id = l.purchase_id
          where p.vendor_id = ${vendorId} and l.account_type = 'clearing'
            and p.buyer_id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})
          group by p.buyer_id, l.currency order by l.currency`,
      )
    : [];
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    customers: page.map((r) => ({
      buyer: contacts.get(r.buyer_id) ?? { email: '', username: null },
      purchases: r.purchases,
      spent: spent
        .filter((s) => s.buyer_id === r.buyer_id)
        .map((s) => ({ amount: s.amount, currency: s.currency })),
      firstPurchaseAt: iso(r.first),
      lastPurchaseAt: iso(r.last),
    })),
    nextCursor,
  };
}
