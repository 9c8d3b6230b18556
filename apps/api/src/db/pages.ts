// A list read a page at a time, for answers that stream (the account export, ADR 060): memory holds
// one page, whatever the list's length, and no connection is held between pages.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './client.ts';

/** Rows per page: big enough that round trips do not dominate, small enough to stay a few hundred KB. */
export const PAGE_ROWS = 500;

/** A list's rows, page by page: what a streamed answer writes as one JSON array. */
export type Pages<T> = AsyncIterable<T[]>;

/**
 * The rows of a list in (timestamp, id) order, by keyset: each page is its own query, starting
 * after the last row of the one before. `query` gets the condition to put in its `where` (empty for
 * the first page; it starts with `and`) and the page size; it orders by `at, id` and selects them
 * as `page_at` (`at::text`) and `page_id`. The timestamp travels as text, so its microseconds survive (a JavaScript date would drop them and
 * repeat or skip rows). Rows added while the list is read may or may not appear; none appears twice.
 */
export async function* keysetPages<R extends Record<string, unknown>, T>(
  db: Tx,
  key: { at: SQL; id: SQL },
  query: (after: SQL, limit: number) => SQL,
  map: (row: R) => T,
  size = PAGE_ROWS,
): Pages<T> {
  let after = sql``;
  for (;;) {
    const res = await db.execute<R & { page_at: string; page_id: string }>(query(after, size));
    const rows = res.rows;
    if (rows.length) yield rows.map((r) => map(r as R));
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = sql`and (${key.at}, ${key.id}) > (${last.page_at}::timestamptz, ${last.page_id})`;
  }
}

/**
 * `keysetPages` of one table's rows, oldest first: `select` names the columns, `from` the table and
 * its `where` condition; the key is `(created_at, id)`.
 */
export function createdPages<R extends Record<string, unknown>, T>(
  db: Tx,
  select: SQL,
  from: SQL,
  map: (row: R) => T,
): Pages<T> {
  return keysetPages(
    db,
    { at: sql`created_at`, id: sql`id` },
    (after, limit) => sql`select ${select}, created_at::text as page_at, id as page_id
      from ${from} ${after} order by created_at, id limit ${limit}`,
    map,
  );
}
