// What the workspace's editors (vendor-products/, vendor-bundles/) share: one writer per vendor,
// free slugs, the draft/published/unpublished status and the list's cursor.
import { vendorProductMessages as m, type VendorProductStatus } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { cursorField, cursorKind, pageOf, timeKey, type Cursors } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { slugify } from './slug.ts';

/**
 * One writer per vendor at a time (a transaction-scoped advisory lock): slugs stay unique, two saves
 * of one product or bundle apply one after the other, and a bundle's publish rule reads its products'
 * statuses as no other save of the vendor's is changing them.
 */
export async function lockVendor(tx: Tx, vendorId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'vendor-products:' + vendorId}))`);
}

/**
 * The vendor's product or bundle, locked for this write (`for update`: a write outside the editor,
 * such as an image upload, waits too); another vendor's is not found. Given the `updatedAt` the
 * editor loaded, a row changed since is refused (409, ADR 040): a save from an older tab would
 * silently undo the other's edit.
 */
export async function lockOwned<Row extends Record<string, unknown>>(
  tx: Tx,
  table: 'products' | 'bundles',
  columns: SQL,
  row: { vendorId: string; id: string; baseUpdatedAt?: string | undefined },
  refuse: { missing: () => AppError; conflict: string },
): Promise<Row> {
  const same = row.baseUpdatedAt
    ? sql`date_trunc('milliseconds', updated_at) = ${row.baseUpdatedAt}::timestamptz`
    : sql`true`;
  const { rows } = await tx.execute<Row & { same: boolean }>(sql`select ${columns}, ${same} as same
    from ${sql.raw(table)} where id = ${row.id} and vendor_id = ${row.vendorId} for update`);
  const found = rows[0];
  if (!found) throw refuse.missing();
  if (!found.same) throw new AppError('conflict', refuse.conflict);
  const { same: _same, ...owned } = found;
  return owned as unknown as Row;
}

/**
 * A slug free among the vendor's products or bundles (each has its own): the title's, else with the
 * row id's tail. Called under `lockVendor`, so two saves cannot take the same one.
 */
export async function freeSlug(
  tx: Tx,
  table: 'products' | 'bundles',
  row: { vendorId: string; id: string; title: string },
): Promise<string> {
  const base = slugify(row.title) || (table === 'products' ? 'product' : 'bundle');
  const { rows } = await tx.execute(sql`select 1 from ${sql.identifier(table)}
    where vendor_id = ${row.vendorId} and slug = ${base} and id <> ${row.id}`);
  return rows.length ? `${base}-${row.id.slice(-6).toLowerCase()}` : base;
}

/** Never published = draft; public = published; hidden again = unpublished (ADR 040). */
export const statusOf = (isActive: boolean, publishedAt: unknown): VendorProductStatus =>
  isActive ? 'published' : publishedAt ? 'unpublished' : 'draft';

/** The rows of table alias `alias` in `status`, as an `and …` condition (nothing without one). */
function statusFilter(alias: string, status: VendorProductStatus | undefined): SQL {
  const t = sql.identifier(alias);
  if (status === 'published') return sql`and ${t}.is_active`;
  if (status === 'unpublished')
    return sql`and not ${t}.is_active and ${t}.published_at is not null`;
  if (status === 'draft') return sql`and not ${t}.is_active and ${t}.published_at is null`;
  return sql``;
}

/**
 * The cursor: the last row's `updated_at` at full precision and its id; one kind per list, so a
 * products page's cursor is refused by the bundles list.
 */
const EDIT_CURSORS = {
  p: cursorKind('edited-products', [cursorField.time, cursorField.id], m.badCursor),
  b: cursorKind('edited-bundles', [cursorField.time, cursorField.id], m.badCursor),
};
type EditedList = keyof typeof EDIT_CURSORS;

const encodeCursor = (
  cursors: Cursors,
  alias: EditedList,
  last: { updated_key: string; id: string },
) => cursors.encode(EDIT_CURSORS[alias], [last.updated_key, last.id]);

/** Pages rows of alias `alias` after `cursor`, most recently edited first (nothing on page one). */
function afterCursor(cursors: Cursors, alias: EditedList, cursor: string | undefined): SQL {
  if (!cursor) return sql``;
  const [at, id] = cursors.decode(EDIT_CURSORS[alias], cursor);
  const t = sql.identifier(alias);
  return sql`and (${t}.updated_at, ${t}.id) < (${at}::timestamptz, ${id})`;
}

/** `updated_at` at full precision, as the cursor carries it. */
export const updatedKey = (alias: string): SQL => timeKey(sql`${sql.identifier(alias)}.updated_at`);

/**
 * The vendor's rows of alias `alias` in a most-recently-edited list: `where` to `limit`, with
 * `extra` conditions (`and …`). It asks for one row more than the page, which says there is more.
 */
export function editedRows(
  cursors: Cursors,
  alias: EditedList,
  vendorId: string,
  input: { limit: number; cursor?: string | undefined; status?: VendorProductStatus | undefined },
  extra: SQL = sql``,
): SQL {
  const t = sql.identifier(alias);
  return sql`where ${t}.vendor_id = ${vendorId}
      ${statusFilter(alias, input.status)}
      ${extra}
      ${afterCursor(cursors, alias, input.cursor)}
    order by ${t}.updated_at desc, ${t}.id desc
    limit ${input.limit + 1}`;
}

/** The page of rows read by `editedRows`, and the cursor of the next one (null: none). */
export function editedPage<R extends { updated_key: string; id: string }>(
  cursors: Cursors,
  alias: EditedList,
  rows: R[],
  limit: number,
) {
  return pageOf(rows, limit, (last) => encodeCursor(cursors, alias, last));
}
