// Use cases (vendor): the servers the bot was added to, the community products with their
// bindings, and removing a binding.
import {
  discordMessages as m,
  type VendorCommunityProduct,
  type VendorDiscordServer,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries, vendorProductCursor, vendorProductPage } from '../catalog/index.ts';

type Role = { id: string; name: string };

export async function vendorServers(
  deps: AppDeps,
  vendorId: string,
): Promise<{ servers: VendorDiscordServer[] }> {
  const found = await deps.database.db.execute<{
    guild_id: string;
    name: string;
    icon_url: string | null;
    added_at: Date | string;
  }>(sql`select guild_id, name, icon_url, added_at from vendor_discord_servers
    where vendor_id = ${vendorId} order by added_at desc, guild_id limit 100`);
  return {
    servers: found.rows.map((r) => ({
      id: r.guild_id,
      name: r.name,
      iconUrl: r.icon_url,
      addedAt: new Date(r.added_at).toISOString(),
    })),
  };
}

const COMMUNITY_CURSOR = vendorProductCursor('community-product');

/** The vendor's community and alert products, each with its binding (null until bound). */
export async function communityProducts(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ products: VendorCommunityProduct[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const { products, nextCursor } = await vendorProductPage(deps, vendorId, COMMUNITY_CURSOR, {
    ...page,
    kinds: ['community', 'alert'],
  });
  const ids = products.map((p) => p.id);
  const bound = ids.length
    ? await db.execute<{
        product_id: string;
        guild_id: string;
        guild_name: string;
        guild_icon_url: string | null;
        roles: Role[];
      }>(sql`select product_id, guild_id, guild_name, guild_icon_url, roles
        from community_bindings
        where vendor_id = ${vendorId} and product_id = any(${sql.param(ids)}::text[])`)
    : { rows: [] };
  const byProduct = new Map(bound.rows.map((b) => [b.product_id, b]));
  return {
    products: products.map((p) => {
      const b = byProduct.get(p.id);
      return {
        id: p.id,
        slug: p.slug,
        title: p.title,
        isActive: p.isActive,
        binding: b
          ? {
              productId: p.id,
              server: { id: b.guild_id, name: b.guild_name, iconUrl: b.guild_icon_url },
              roles: b.roles,
            }
          : null,
      };
    }),
    nextCursor,
  };
}

/**
 * Removes a product's binding. Buyers keep the roles they hold: once no binding names a role it is
 * no longer the platform's to take (ADR 045), and taking it from everyone would be one irreversible
 * sweep of a server the vendor may still use. New buyers wait for a new binding.
 */
export async function unbind(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<{ productId: string }> {
  const db = deps.database.db;
  const product = (await itemSummaries(db, [{ type: 'product', id: productId }])).get(
    `product:${productId}`,
  );
  if (!product || product.vendorId !== vendorId) throw new AppError('not_found', m.productNotYours);
  const removed = await db.execute(sql`delete from community_bindings
    where product_id = ${productId} and vendor_id = ${vendorId} returning product_id`);
  if (!removed.rows.length) throw new AppError('not_found', m.bindingNotFound);
  return { productId };
}
