// Use case (vendor): the vendor's products with the scripts each delivers, to choose which deliver which.
import type { VendorTradingViewProduct } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind } from '../../platform/cursor.ts';
import { vendorProductRefs } from '../catalog/index.ts';
import { bindingsOf } from './sync.ts';

/** The last product shown; its place is read from its row (another vendor's reads nothing). */
const PRODUCT_CURSOR = cursorKind('tv-product', [cursorField.id]);

export async function vendorProducts(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ products: VendorTradingViewProduct[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { products, more } = await vendorProductRefs(db, vendorId, {
    limit: page.limit,
    after: page.cursor ? deps.cursors.decode(PRODUCT_CURSOR, page.cursor)[0] : null,
  });
  const bound = await bindingsOf(
    db,
    products.map((p) => p.id),
  );
  return {
    products: products.map((p) => ({
      id: p.id,
      title: p.title,
      kind: p.kind,
      isActive: p.isActive,
      scripts: bound
        .filter((b) => b.product_id === p.id)
        .map((b) => ({ id: b.script_id, name: b.name, url: b.url })),
    })),
    nextCursor:
      more && products.length ? deps.cursors.encode(PRODUCT_CURSOR, [products.at(-1)!.id]) : null,
  };
}
