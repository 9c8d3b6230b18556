// Use case (vendor): the vendor's products with the scripts each delivers, to choose which deliver which.
import type { VendorTradingViewProduct } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { vendorProductCursor, vendorProductPage } from '../catalog/index.ts';
import { bindingsOf } from './sync.ts';

const PRODUCT_CURSOR = vendorProductCursor('tv-product');

export async function vendorProducts(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ products: VendorTradingViewProduct[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { products, nextCursor } = await vendorProductPage(deps, vendorId, PRODUCT_CURSOR, page);
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
    nextCursor,
  };
}
