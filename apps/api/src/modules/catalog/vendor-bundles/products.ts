import type { VendorBundleProduct } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { cursorField, cursorKind } from '../../../platform/cursor.ts';
import { bundleProductSelect, presentBundleProduct, type BundleProductRow } from './items.ts';

/**
 * `GET /api/v1/vendor/bundles/products`: the products the picker offers, drafts included, by title;
 * `q` keeps those whose title has it. `cursor` names the last product of the previous page; the next
 * page starts after that product's place, read from its row, so another vendor's gives an empty page.
 */
const PICKER_CURSOR = cursorKind('bundle-picker', [cursorField.id]);

export async function bundleProductChoices(
  deps: AppDeps,
  vendorId: string,
  input: { q?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<{ products: VendorBundleProduct[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const after = input.cursor ? deps.cursors.decode(PICKER_CURSOR, input.cursor)[0] : null;
  const q = input.q?.toLowerCase();
  const like = q ? '%' + q.replace(/[%_\\]/g, '\\$&') + '%' : null;
  const { rows } = await db.execute<BundleProductRow>(sql`${bundleProductSelect}
    ${after ? sql`join products c on c.id = ${after} and c.vendor_id = ${vendorId}` : sql``}
    where p.vendor_id = ${vendorId}
      ${like ? sql`and lower(p.title) like ${like}` : sql``}
      ${after ? sql`and (lower(p.title), p.id) > (lower(c.title), c.id)` : sql``}
    order by lower(p.title), p.id
    limit ${input.limit + 1}`);
  const page = rows.slice(0, input.limit);
  return {
    products: page.map(presentBundleProduct),
    nextCursor:
      rows.length > input.limit && page.length
        ? deps.cursors.encode(PICKER_CURSOR, [page[page.length - 1]!.id])
        : null,
  };
}
