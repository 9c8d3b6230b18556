import {
  vendorProductMessages as m,
  type ProductKind,
  type VendorProductRow,
  type VendorProductStatus,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../platform/errors.ts';
import { imageFileUrl } from '../../../platform/images.ts';
import { vendorOf } from './access.ts';
import { plansJson, presentPlan, statusOf, type PlanRow } from './read.ts';

const statusFilter: Record<VendorProductStatus, ReturnType<typeof sql>> = {
  published: sql`and p.is_active`,
  unpublished: sql`and not p.is_active and p.published_at is not null`,
  draft: sql`and not p.is_active and p.published_at is null`,
};

/** The cursor: the last row's `updated_at` at full precision (as text) and its id. */
function decodeCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(parsed[0]) &&
      parsed[1].length <= 64
    )
      return [parsed[0], parsed[1]];
  } catch {
    // fall through to the error below
  }
  throw new AppError('validation_failed', m.badCursor, { cursor: m.badCursor });
}

/** `GET /api/v1/vendor/products`: most recently edited first, drafts included. */
export async function listVendorProducts(
  deps: AppDeps,
  userId: string,
  input: {
    limit: number;
    cursor?: string | undefined;
    status?: VendorProductStatus | undefined;
    kind?: ProductKind | undefined;
  },
): Promise<{ products: VendorProductRow[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const vendorId = await vendorOf(db, userId);
  const after = input.cursor
    ? (([at, id]) => sql`and (p.updated_at, p.id) < (${at}::timestamptz, ${id})`)(
        decodeCursor(input.cursor),
      )
    : sql``;
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
      to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_key,
      p.images[1] as image_key, ${plansJson} as plans
    from products p
    where p.vendor_id = ${vendorId}
      ${input.status ? statusFilter[input.status] : sql``}
      ${input.kind ? sql`and p.kind = ${input.kind}` : sql``}
      ${after}
    order by p.updated_at desc, p.id desc
    limit ${input.limit + 1}`);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    products: page.map((r) => ({
      id: r.id,
      slug: r.slug,
      kind: r.kind,
      status: statusOf(r.is_active, r.published_at),
      title: r.title,
      publicPath: `/p/${encodeURIComponent(r.id)}/${encodeURIComponent(r.slug)}`,
      salesCount: r.sales_count,
      updatedAt: new Date(r.updated_at).toISOString(),
      price: r.plans[0] ? presentPlan(r.plans[0]) : null,
      plansCount: r.plans.length,
      imageUrl: imageFileUrl(deps.storage, r.image_key),
    })),
    nextCursor:
      rows.length > input.limit && last
        ? Buffer.from(JSON.stringify([last.updated_key, last.id])).toString('base64url')
        : null,
  };
}
