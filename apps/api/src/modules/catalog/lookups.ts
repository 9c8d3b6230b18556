import type { ProductCard } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { presentProductCard } from './presenter.ts';
import { productCardColumns, productCardFrom, rows, type ProductCardRow } from './repository.ts';

/** Product ids of one vendor by slug (the platform's plan products), active or not. */
export async function productIdsBySlug(
  deps: AppDeps,
  vendorUrl: string,
  slugs: readonly string[],
): Promise<Map<string, string>> {
  const found = await rows<{ id: string; slug: string }>(
    deps.database.db,
    sql`select p.id, p.slug from products p join vendors v on v.id = p.vendor_id
        where lower(v.vendor_url) = lower(${vendorUrl}) and p.slug = any(${sql.param([...slugs])}::text[])`,
  );
  return new Map(found.map((r) => [r.slug, r.id]));
}

/** When the newest active product was published (null for an empty catalogue). */
export async function newestPublishedAt(deps: AppDeps): Promise<Date | null> {
  const [found] = await rows<{ at: Date | string | null }>(
    deps.database.db,
    sql`select max(created_at) as at from products where is_active`,
  );
  return found?.at ? new Date(found.at) : null;
}

/** Active products as cards, by id (anonymous: no `purchased` flags), in no particular order. */
export async function productCardsById(
  deps: AppDeps,
  ids: readonly string[],
): Promise<ProductCard[]> {
  if (!ids.length) return [];
  const found = await rows<ProductCardRow>(
    deps.database.db,
    sql`select ${productCardColumns(null)} ${productCardFrom}
        where p.id = any(${sql.param([...ids])}::text[]) and p.is_active`,
  );
  return found.map((r) => presentProductCard(r, deps.storage));
}
