import type { vendorBundleInput, vendorBundleUpdate } from '@tradeshelf/contract';
import {
  bundleMissingToPublish,
  vendorBundleMessages as m,
  type VendorBundle,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../../db/client.ts';
import type { AppDeps } from '../../../deps.ts';
import { newId } from '../../../lib.ts';
import { AppError } from '../../../platform/errors.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { freeSlug, lockVendor } from '../vendor-edits.ts';
import { ownedBundle } from './access.ts';
import { bundlePublishBlocked, checkPriceAboveValue } from './publish.ts';
import { readVendorBundle } from './read.ts';

type Input = z.output<typeof vendorBundleInput>;
type Update = z.output<typeof vendorBundleUpdate>;

/**
 * The chosen products must all be the vendor's own: an unknown id and another vendor's product are
 * refused alike (422 on `productIds`), so the answer tells nothing of other vendors' catalogues.
 * Answers how many of them are published.
 */
async function checkProducts(tx: Tx, vendorId: string, ids: string[]): Promise<number> {
  const { rows } = await tx.execute<{ n: number; published: number }>(sql`
    select count(*)::int as n, count(*) filter (where is_active)::int as published from products
    where vendor_id = ${vendorId} and id = any(${sql.param(ids)}::text[])`);
  if (rows[0]?.n !== ids.length)
    throw new AppError('business_rule', m.productUnknown, { productIds: m.productUnknown });
  return rows[0].published;
}

async function writeItems(tx: Tx, bundleId: string, ids: string[]): Promise<void> {
  await tx.execute(sql`delete from bundle_items where bundle_id = ${bundleId}
    and not (product_id = any(${sql.param(ids)}::text[]))`);
  await tx.execute(sql`insert into bundle_items (bundle_id, product_id)
    select ${bundleId}, unnest(${sql.param(ids)}::text[]) on conflict do nothing`);
}

/**
 * The bundle's price: kept when amount and currency are unchanged; otherwise a new one-time price
 * and the old one archived, never changed (purchases point at the price they paid, ADR 040).
 */
async function writePrice(
  tx: Tx,
  bundleId: string,
  current: string | null,
  price: Input['price'],
): Promise<string | null> {
  if (current && price) {
    const { rows } = await tx.execute(sql`select 1 from prices where id = ${current}
      and is_active and amount = ${price.amount} and currency = ${price.currency}`);
    if (rows.length) return current;
  }
  if (current) await tx.execute(sql`update prices set is_active = false where id = ${current}`);
  if (!price) return null;
  const id = newId('price');
  await tx.execute(sql`insert into prices (id, bundle_id, amount, currency, scheme)
    values (${id}, ${bundleId}, ${price.amount}, ${price.currency}, 'one_time')`);
  return id;
}

/** `POST /api/v1/vendor/bundles`: a new draft. */
export async function createVendorBundle(
  deps: AppDeps,
  vendorId: string,
  input: Input,
): Promise<VendorBundle> {
  const db = deps.database.db;
  const id = newId('bnd');
  return db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    await checkProducts(tx, vendorId, input.productIds);
    const slug = await freeSlug(tx, 'bundles', { vendorId, id, title: input.title });
    // Inserted inactive: nothing public (page, search, sitemap, storefront) reads it until it is published.
    await tx.execute(sql`insert into bundles (id, vendor_id, slug, title, summary, description, is_active)
      values (${id}, ${vendorId}, ${slug}, ${input.title}, ${input.summary}, ${input.description}, false)`);
    const priceId = await writePrice(tx, id, null, input.price);
    if (priceId) await tx.execute(sql`update bundles set price_id = ${priceId} where id = ${id}`);
    await writeItems(tx, id, input.productIds);
    return readVendorBundle(deps, vendorId, id, tx);
  });
}

/**
 * `PUT /api/v1/vendor/bundles/{id}`: saves the whole bundle in one transaction. A published bundle must
 * stay publishable (422 names what is missing); its page, search matches (read from the row) and
 * sitemap entry change as the transaction commits, and every node's cached pages and search results
 * are dropped right after. Buyers keep the products their purchase gave (ADR 046).
 */
export async function updateVendorBundle(
  deps: AppDeps,
  vendorId: string,
  bundleId: string,
  input: Update,
): Promise<VendorBundle> {
  const db = deps.database.db;
  const saved = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const bundle = await ownedBundle(tx, vendorId, bundleId, input.baseUpdatedAt);
    const publishedProducts = await checkProducts(tx, vendorId, input.productIds);
    if (bundle.is_active) {
      const missing = bundleMissingToPublish({ ...input, publishedProducts });
      if (Object.keys(missing).length) throw bundlePublishBlocked(missing);
    }
    const slug = await freeSlug(tx, 'bundles', { vendorId, id: bundleId, title: input.title });
    const priceId = await writePrice(tx, bundleId, bundle.price_id, input.price);
    await tx.execute(sql`update bundles set slug = ${slug}, title = ${input.title},
        summary = ${input.summary}, description = ${input.description}, price_id = ${priceId},
        updated_at = now()
      where id = ${bundleId}`);
    await writeItems(tx, bundleId, input.productIds);
    const after = await readVendorBundle(deps, vendorId, bundleId, tx);
    // On sale, a price above the parts' value needs the vendor's word, as publishing does.
    if (bundle.is_active) checkPriceAboveValue(after, input.confirmPriceAboveValue);
    const version = bundle.is_active ? await bumpCatalogVersion(tx) : null;
    return { bundle: after, version };
  });
  if (saved.version !== null) catalogChanged(deps, saved.version);
  return saved.bundle;
}
