import type { vendorProductInput, vendorProductUpdate } from '@tradeshelf/contract';
import {
  categoryOfKind,
  missingToPublish,
  vendorProductMessages as m,
  type VendorProduct,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../../db/client.ts';
import type { AppDeps } from '../../../deps.ts';
import { newId } from '../../../lib.ts';
import { AppError } from '../../../platform/errors.ts';
import { bumpCatalogVersion, catalogChanged } from '../catalog-changes.ts';
import { freeSlug, lockVendor } from '../vendor-edits.ts';
import { ownedProduct } from './access.ts';
import { publishBlocked } from './publish.ts';
import { billingOf, readVendorProduct, type PlanRow } from './read.ts';

type Input = z.output<typeof vendorProductInput>;
type Update = z.output<typeof vendorProductUpdate>;
type PlanInput = Input['plans'][number];

async function checkPrerequisites(tx: Tx, vendorId: string, productId: string, ids: string[]) {
  if (ids.includes(productId))
    throw new AppError('validation_failed', m.prerequisiteSelf, {
      prerequisiteIds: m.prerequisiteSelf,
    });
  if (!ids.length) return;
  const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from products
    where vendor_id = ${vendorId} and id = any(${sql.param(ids)}::text[])`);
  if (rows[0]?.n !== ids.length)
    throw new AppError('validation_failed', m.prerequisiteUnknown, {
      prerequisiteIds: m.prerequisiteUnknown,
    });
  // Requiring a product that (through others) requires this one would make both unbuyable.
  const { rows: cycle } = await tx.execute(sql`with recursive needs(id) as (
      select requires_product_id from product_prerequisites where product_id = any(${sql.param(ids)}::text[])
      union
      select pp.requires_product_id from product_prerequisites pp join needs n on pp.product_id = n.id)
    select 1 from needs where id = ${productId} limit 1`);
  if (cycle.length)
    throw new AppError('validation_failed', m.prerequisiteCycle, {
      prerequisiteIds: m.prerequisiteCycle,
    });
}

const samePlan = (old: PlanRow, plan: PlanInput) =>
  billingOf(old) === plan.billing &&
  old.amount === plan.amount &&
  old.currency === plan.currency &&
  (old.trial_days ?? 0) === plan.trialDays;

/**
 * Writes the plans: a plan sent with the id of an active plan and the same terms keeps that price; any
 * other is a new price. Active prices not kept are archived, never changed: purchases and subscriptions
 * point at the price they paid. Returns the default (first) plan.
 */
async function writePlans(tx: Tx, productId: string, plans: PlanInput[]) {
  const { rows: current } = await tx.execute<PlanRow & { position: number }>(sql`
    select id as price_id, amount, currency, scheme, interval, trial_days, position
    from prices where product_id = ${productId} and is_active`);
  const kept = new Set<string>();
  const ids: string[] = [];
  for (const [position, plan] of plans.entries()) {
    const old = current.find((c) => c.price_id === plan.priceId && !kept.has(c.price_id));
    if (old && samePlan(old, plan)) {
      kept.add(old.price_id);
      ids.push(old.price_id);
      if (old.position !== position)
        await tx.execute(sql`update prices set position = ${position} where id = ${old.price_id}`);
      continue;
    }
    const id = newId('price');
    ids.push(id);
    const recurring = plan.billing !== 'one_time';
    await tx.execute(sql`insert into prices (id, product_id, amount, currency, scheme, interval, trial_days, position)
      values (${id}, ${productId}, ${plan.amount}, ${plan.currency}, ${recurring ? 'recurring' : 'one_time'},
        ${recurring ? plan.billing : null}, ${recurring && plan.trialDays ? plan.trialDays : null}, ${position})`);
  }
  const archived = current.filter((c) => !kept.has(c.price_id)).map((c) => c.price_id);
  if (archived.length)
    await tx.execute(
      sql`update prices set is_active = false where id = any(${sql.param(archived)}::text[])`,
    );
  return { defaultPriceId: ids[0] ?? null, sortAmount: plans[0]?.amount ?? 0 };
}

async function writePrerequisites(tx: Tx, productId: string, ids: string[]) {
  await tx.execute(sql`delete from product_prerequisites where product_id = ${productId}`);
  if (ids.length)
    await tx.execute(sql`insert into product_prerequisites (product_id, requires_product_id)
      select ${productId}, unnest(${sql.param(ids)}::text[])`);
}

/** `POST /api/v1/vendor/products`: a new draft. */
export async function createVendorProduct(
  deps: AppDeps,
  vendorId: string,
  input: Input,
): Promise<VendorProduct> {
  const db = deps.database.db;
  const id = newId('prd');
  return db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    await checkPrerequisites(tx, vendorId, id, input.prerequisiteIds);
    const slug = await freeSlug(tx, 'products', { vendorId, id, title: input.title });
    // Inserted inactive, so the search index ignores it until it is published.
    await tx.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary,
        description, tags, platforms, asset_classes, is_active)
      values (${id}, ${vendorId}, ${input.kind}, ${categoryOfKind[input.kind]}, ${slug}, ${input.title},
        ${input.summary}, ${input.description}, ${sql.param(input.tags)}::text[],
        ${sql.param(input.platforms)}::text[], ${sql.param(input.assetClasses)}::text[], false)`);
    const { defaultPriceId, sortAmount } = await writePlans(tx, id, input.plans);
    if (defaultPriceId)
      await tx.execute(sql`update products set default_price_id = ${defaultPriceId},
        sort_amount = ${sortAmount} where id = ${id}`);
    await writePrerequisites(tx, id, input.prerequisiteIds);
    return readVendorProduct(deps, vendorId, id, tx);
  });
}

/**
 * `PUT /api/v1/vendor/products/{id}`: saves the whole product in one transaction. A published product
 * must stay publishable (422 names what is missing); its page, search postings (kept by the table's
 * triggers, SEARCH.md) and sitemap entry change as the transaction commits, and the caches of public
 * pages and search results are dropped right after.
 */
export async function updateVendorProduct(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  input: Update,
): Promise<VendorProduct> {
  const db = deps.database.db;
  const saved = await db.transaction(async (tx) => {
    await lockVendor(tx, vendorId);
    const product = await ownedProduct(tx, vendorId, productId, input.baseUpdatedAt);
    if (product.is_active) {
      const missing = missingToPublish(input);
      if (Object.keys(missing).length) throw publishBlocked(missing);
    }
    await checkPrerequisites(tx, vendorId, productId, input.prerequisiteIds);
    const slug = await freeSlug(tx, 'products', { vendorId, id: productId, title: input.title });
    const { defaultPriceId, sortAmount } = await writePlans(tx, productId, input.plans);
    await tx.execute(sql`update products set kind = ${input.kind}, category = ${categoryOfKind[input.kind]},
        slug = ${slug}, title = ${input.title}, summary = ${input.summary}, description = ${input.description},
        tags = ${sql.param(input.tags)}::text[], platforms = ${sql.param(input.platforms)}::text[],
        asset_classes = ${sql.param(input.assetClasses)}::text[], default_price_id = ${defaultPriceId},
        sort_amount = ${sortAmount}, updated_at = now()
      where id = ${productId}`);
    await writePrerequisites(tx, productId, input.prerequisiteIds);
    // A public product changed: every node's cached pages and search results must go.
    const version = product.is_active ? await bumpCatalogVersion(tx) : null;
    return { product: await readVendorProduct(deps, vendorId, productId, tx), version };
  });
  if (saved.version !== null) catalogChanged(deps, saved.version);
  return saved.product;
}
