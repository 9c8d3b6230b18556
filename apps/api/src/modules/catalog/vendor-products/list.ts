import {
  type ProductKind,
  type VendorProductRow,
  type VendorProductStatus,
  productPath,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { imageFileUrl } from '../../../platform/images.ts';
import { editedPage, editedRows, statusOf, updatedKey } from '../vendor-edits.ts';
import { plansJson, presentPlan, type PlanRow } from './read.ts';

/** `GET /api/v1/vendor/products`: most recently edited first, drafts included. */
export async function listVendorProducts(
  deps: AppDeps,
  vendorId: string,
  input: {
    limit: number;
    cursor?: string | undefined;
    status?: VendorProductStatus | undefined;
    kind?: ProductKind | undefined;
  },
): Promise<{ products: VendorProductRow[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { rows } = await db.execute<{
    id: string;
    slug: string;
    kind: VendorProductRow['kind'];
    title: string;
    is_active: boolean;
    published_at: Date | string | null;
    sales_count: number;
    updated_at: Date | string;
    updated_key: string;
    image_key: string | null;
    plans: PlanRow[];
  }>(sql`
    select p.id, p.slug, p.kind, p.title, p.is_active, p.published_at, p.sales_count, p.updated_at,
      ${updatedKey('p')} as updated_key,
      p.images[1] as image_key, ${plansJson} as plans
    from products p
    ${editedRows(deps.cursors, 'p', vendorId, input, input.kind ? sql`and p.kind = ${input.kind}` : sql``)}`);
  const { page, nextCursor } = editedPage(deps.cursors, 'p', rows, input.limit);
  return {
    products: page.map((r) => ({
      id: r.id,
      slug: r.slug,
      kind: r.kind,
      status: statusOf(r.is_active, r.published_at),
      title: r.title,
      publicPath: productPath(r),
      salesCount: r.sales_count,
      updatedAt: new Date(r.updated_at).toISOString(),
      price: r.plans[0] ? presentPlan(r.plans[0]) : null,
      plansCount: r.plans.length,
      imageUrl: imageFileUrl(deps.storage, r.image_key),
    })),
    nextCursor,
  };
}
