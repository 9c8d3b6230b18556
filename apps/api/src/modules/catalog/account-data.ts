// The catalog module's part of exporting and deleting an account (ADR 060): the storefront and its
// products; on deletion the storefront closes (everything unpublished) while sold items stay owned.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { createdPages } from '../../db/pages.ts';
import type { AppDeps } from '../../deps.ts';
import { bumpCatalogVersion, catalogChanged } from './catalog-changes.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export async function storefrontExport(db: Tx, vendorId: string) {
  const vendor = await db.execute<{
    id: string;
    vendor_url: string;
    display_name: string;
    bio: string;
    created_at: Date;
  }>(sql`select id, vendor_url, display_name, bio, created_at from vendors where id = ${vendorId}`);
  const v = vendor.rows[0];
  if (!v) return null;
  return {
    id: v.id,
    vendorUrl: v.vendor_url,
    displayName: v.display_name,
    bio: v.bio,
    createdAt: iso(v.created_at),
    // A page at a time: a storefront may hold many.
    products: createdPages(
      db,
      sql`id, kind, slug, title, is_active, created_at`,
      sql`products where vendor_id = ${vendorId}`,
      (p: {
        id: string;
        kind: string;
        slug: string;
        title: string;
        is_active: boolean;
        created_at: Date;
      }) => ({
        id: p.id,
        kind: p.kind,
        slug: p.slug,
        title: p.title,
        isActive: p.is_active,
        createdAt: iso(p.created_at),
      }),
    ),
  };
}

/**
 * In the deleting transaction: every product and bundle is unpublished, so nothing more can be
 * bought. The vendor row and the products stay: orders, licences and buyers' libraries point at
 * them. Answers the catalogue version for `catalogChanged` after the commit.
 */
export async function closeStorefront(tx: Tx, vendorId: string): Promise<number> {
  await tx.execute(sql`update products set is_active = false, updated_at = now()
    where vendor_id = ${vendorId} and is_active`);
  await tx.execute(sql`update bundles set is_active = false, updated_at = now()
    where vendor_id = ${vendorId} and is_active`);
  return bumpCatalogVersion(tx);
}

export const storefrontClosed = (deps: AppDeps, version: number) => catalogChanged(deps, version);
