// Use cases (vendor): the vendor's scripts and which products deliver them; (public) what a product
// delivers, for its page.
import {
  tradingViewMessages as m,
  type TradingViewScript,
  type VendorTradingViewScript,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { accessHolders } from '../access/index.ts';
import { itemSummaries } from '../catalog/index.ts';
import { bindingsOf } from './sync.ts';

/** One spelling per script page: `https://www.tradingview.com/script/…/`, so a repeat is caught. */
export function canonicalScriptUrl(url: string): string {
  const u = new URL(url.trim());
  const path = u.pathname.endsWith('/') ? u.pathname : `${u.pathname}/`;
  return `https://www.tradingview.com${path}`;
}

async function scriptsOfVendor(db: Tx, vendorId: string, only?: string) {
  const found = await db.execute<{
    id: string;
    name: string;
    url: string;
    created_at: Date | string;
    product_ids: string[];
  }>(sql`
    select s.id, s.name, s.url, s.created_at,
      coalesce(array_agg(ps.product_id order by ps.product_id)
        filter (where ps.product_id is not null), '{}') as product_ids
    from tradingview_scripts s
    left join tradingview_product_scripts ps on ps.script_id = s.id
    where s.vendor_id = ${vendorId} ${only ? sql`and s.id = ${only}` : sql``}
    group by s.id order by s.name, s.id`);
  const titles = await itemSummaries(
    db,
    found.rows.flatMap((r) => r.product_ids.map((id) => ({ type: 'product' as const, id }))),
  );
  return found.rows.map((r): VendorTradingViewScript => ({
    id: r.id,
    name: r.name,
    url: r.url,
    createdAt: new Date(r.created_at).toISOString(),
    products: r.product_ids.map((id) => ({
      id,
      title: titles.get(`product:${id}`)?.title ?? '',
    })),
  }));
}

export async function vendorScripts(deps: AppDeps, vendorId: string) {
  return scriptsOfVendor(deps.database.db, vendorId);
}

export async function createScript(
  deps: AppDeps,
  vendorId: string,
  input: { name: string; url: string },
): Promise<VendorTradingViewScript> {
  const id = newId('tvs');
  const inserted = await deps.database.db.execute(sql`insert into tradingview_scripts
      (id, vendor_id, name, url)
    values (${id}, ${vendorId}, ${input.name}, ${canonicalScriptUrl(input.url)})
    on conflict (vendor_id, url) do nothing returning id`);
  if (!inserted.rows.length) throw new AppError('conflict', m.scriptTaken);
  return (await scriptsOfVendor(deps.database.db, vendorId, id))[0]!;
}

/**
 * Sets the scripts a product delivers. Its buyers are brought to the new set by jobs, after the
 * commit: a grant task for a script added, a revocation for one removed.
 */
export async function setProductScripts(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  productId: string,
  scriptIds: readonly string[],
): Promise<{ id: string; scripts: TradingViewScript[] }> {
  const db = deps.database.db;
  const product = (await itemSummaries(db, [{ type: 'product', id: productId }])).get(
    `product:${productId}`,
  );
  if (!product || product.vendorId !== vendorId) throw new AppError('not_found', m.productNotYours);
  const wanted = [...new Set(scriptIds)];
  const mine = await db.execute<{ id: string }>(sql`select id from tradingview_scripts
    where vendor_id = ${vendorId} and id = any(${sql.param(wanted)}::text[])`);
  if (mine.rows.length !== wanted.length) throw new AppError('not_found', m.scriptNotFound);
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from tradingview_product_scripts
      where product_id = ${productId} and not (script_id = any(${sql.param(wanted)}::text[]))`);
    if (wanted.length)
      await tx.execute(sql`insert into tradingview_product_scripts (product_id, script_id)
        select ${productId}, unnest(${sql.param(wanted)}::text[])
        on conflict do nothing`);
  });
  for (const buyerId of await accessHolders(db, [productId]))
    await deps.jobs.send(queues.tradingviewSync, { userId: buyerId });
  return { id: productId, scripts: await productScripts(deps, productId) };
}

/** What a product delivers on TradingView (nothing, for most). */
export async function productScripts(deps: AppDeps, productId: string) {
  return (await bindingsOf(deps.database.db, [productId])).map((b): TradingViewScript => ({
    id: b.script_id,
    name: b.name,
    url: b.url,
  }));
}
