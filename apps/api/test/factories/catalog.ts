import { randomBytes } from 'node:crypto';
import {
  categoryOfKind,
  type AssetClass,
  type ProductKind,
  type Role,
  type TradingPlatform,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { newId } from '../../src/lib.ts';
import { slugify } from '../../src/modules/catalog/slug.ts';
import type { TestApp } from '../harness.ts';
import { createUser, userToken } from './users.ts';

let seq = 0;

export async function createVendor(
  t: TestApp,
  overrides: Partial<{ vendorUrl: string; displayName: string; userId: string }> = {},
) {
  const n = ++seq;
  const userId = overrides.userId ?? (await createUser(t, { roles: ['buyer', 'vendor'] })).id;
  const id = newId('ven');
  const vendorUrl = overrides.vendorUrl ?? `vendor-${n}-${Math.random().toString(36).slice(2, 6)}`;
  await t.database.db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio)
    values (${id}, ${userId}, ${vendorUrl}, ${overrides.displayName ?? `Vendor ${n}`}, 'Test vendor')`);
  return { id, userId, vendorUrl };
}

export type Vendor = Awaited<ReturnType<typeof createVendor>>;

/** An access token for `userId`, as signing in gives (a buyer who sells, unless `roles` says). */
export const tokenOf = (t: TestApp, userId: string, roles: Role[] = ['buyer', 'vendor']) =>
  t.deps.tokens.sign({ sub: userId, email: `${userId}@x.test`, roles });

/** A vendor whose user is signed in: the vendor, its user (with the e-mail mail goes to), a token. */
export async function signedInVendor(
  t: TestApp,
  overrides: Partial<{ vendorUrl: string; displayName: string }> = {},
) {
  const user = await createUser(t, { roles: ['buyer', 'vendor'] });
  const vendor = await createVendor(t, { ...overrides, userId: user.id });
  const token = await userToken(t, user, ['buyer', 'vendor']);
  return { ...vendor, user, email: user.email, token };
}

export async function createProduct(
  t: TestApp,
  vendorId: string,
  overrides: Partial<{
    title: string;
    kind: ProductKind;
    tags: string[];
    platforms: TradingPlatform[];
    assetClasses: AssetClass[];
    amount: number;
    isActive: boolean;
    description: string;
    extraPrices: number[];
    slug: string;
    /** Trial days of the extra (monthly) prices. */
    trialDays: number;
  }> = {},
) {
  const n = ++seq;
  const id = newId('prd');
  const priceId = newId('price');
  const title = overrides.title ?? `Product ${n}`;
  const kind = overrides.kind ?? 'indicator';
  const amount = overrides.amount ?? 1000;
  await t.database.db
    .execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary, description, tags,
      platforms, asset_classes, is_active, default_price_id, sort_amount)
    values (${id}, ${vendorId}, ${kind}, ${categoryOfKind[kind]}, ${overrides.slug ?? slugify(title) + '-' + n}, ${title}, ${'About ' + title},
      ${overrides.description ?? ''}, ${sql.param(overrides.tags ?? [])}::text[], ${sql.param(overrides.platforms ?? ['tradingview'])}::text[],
      ${sql.param(overrides.assetClasses ?? [])}::text[], ${overrides.isActive ?? true}, ${priceId}, ${amount})`);
  await t.database.db
    .execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
    values (${priceId}, ${id}, ${amount}, 'usd', 'one_time', 0)`);
  const extraPriceIds: string[] = [];
  for (const [i, extra] of (overrides.extraPrices ?? []).entries()) {
    const extraId = newId('price');
    extraPriceIds.push(extraId);
    await t.database.db
      .execute(sql`insert into prices (id, product_id, amount, currency, scheme, interval, trial_days, position)
      values (${extraId}, ${id}, ${extra}, 'usd', 'recurring', 'month', ${overrides.trialDays ?? null}, ${i + 1})`);
  }
  return { id, priceId, title, extraPriceIds };
}

export async function createBundle(
  t: TestApp,
  vendorId: string,
  productIds: string[],
  amount = 5000,
  title = `Bundle ${++seq}`,
) {
  const id = newId('bnd');
  const priceId = newId('price');
  await t.database.db.execute(
    sql`insert into bundles (id, vendor_id, slug, title, price_id, published_at) values (${id}, ${vendorId}, ${slugify(title)}, ${title}, ${priceId}, now())`,
  );
  await t.database.db.execute(
    sql`insert into prices (id, bundle_id, amount, currency, scheme) values (${priceId}, ${id}, ${amount}, 'usd', 'one_time')`,
  );
  for (const p of productIds)
    await t.database.db.execute(
      sql`insert into bundle_items (bundle_id, product_id) values (${id}, ${p})`,
    );
  return { id, priceId, title };
}

export async function grantOwnership(
  t: TestApp,
  userId: string,
  target: { productId?: string; bundleId?: string },
) {
  // A bundle gives the products it holds now, as a payment would (ADR 046).
  await t.database.db
    .execute(sql`insert into ownerships (id, user_id, product_id, bundle_id, bundle_product_ids, source)
    select ${newId('own')}, ${userId}, ${target.productId ?? null}, ${target.bundleId ?? null},
      coalesce((select array_agg(product_id) from bundle_items where bundle_id = ${target.bundleId ?? null}), '{}'), 'test'`);
}

export async function requirePrerequisite(
  t: TestApp,
  productId: string,
  requiresProductId: string,
) {
  await t.database.db.execute(
    sql`insert into product_prerequisites (product_id, requires_product_id) values (${productId}, ${requiresProductId})`,
  );
}

/**
 * A word no other product has and the search's spelling fix cannot reach from another such word:
 * twelve random letters, so two of them are never within the few edits `tradeshelf_correct_word` allows.
 */
export const searchWord = (): string =>
  Array.from(randomBytes(12), (b) => String.fromCharCode(97 + (b % 26))).join('');
