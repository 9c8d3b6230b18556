import { assetClasses, categoryOfKind, planFeatures, plans } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../lib.ts';
import { hashPassword } from '../auth/index.ts';
import { demoDescription } from './demo-copy.ts';
import { demoBundles, demoPrerequisites, demoProducts, demoVendors } from './demo-data.ts';
import { slugify } from './slug.ts';

/** A small deterministic generator so the demo catalogue looks the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const DAY = 86_400_000;

/**
 * Seeds the demo catalogue once (skipped when vendors exist). `ownerEmails` maps a vendorUrl to the user
 * who runs it (the demo vendor account); other vendors get owner accounts that cannot sign in.
 */
export async function seedDemoCatalog(
  db: Db,
  options: { ownerEmails?: Record<string, string>; buyerEmail?: string } = {},
): Promise<boolean> {
  const existing = await db.execute(sql`select 1 from vendors limit 1`);
  if (existing.rows.length) return false;
  const unusableHash = await hashPassword(newId('locked'));
  const random = rng(42);
  const now = Date.now();

  await db.transaction(async (tx) => {
    const productIds = new Map<
      string,
      { id: string; vendorId: string; priceId: string; amount: number }
    >();
    for (const [index, v] of demoVendors.entries()) {
      const ownerEmail = options.ownerEmails?.[v.vendorUrl];
      let userId: string | undefined;
      if (ownerEmail) {
        const found = await tx.execute(
          sql`select id from users where lower(email) = lower(${ownerEmail})`,
        );
        userId = (found.rows[0] as { id: string } | undefined)?.id;
      }
      if (!userId) {
        userId = newId('usr');
        await tx.execute(sql`insert into users (id, email, password_hash, username, roles, email_verified_at)
          values (${userId}, ${`${v.vendorUrl}@vendors.tradeshelf.test`}, ${unusableHash}, ${v.vendorUrl.replace(/-/g, '_').slice(0, 15)},
                  array['buyer','vendor']::text[], now())`);
      }
      const vendorId = newId('ven');
      await tx.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio, social_links, verified,
          discord_server_id, discord_server_name, created_at)
        values (${vendorId}, ${userId}, ${v.vendorUrl}, ${v.displayName}, ${v.bio},
          ${JSON.stringify({ website: `https://${v.vendorUrl}.example`, x: `https://x.com/${v.vendorUrl.replace(/-/g, '')}` })}::jsonb,
          ${v.verified}, ${v.discord ? `guild_${index + 1}` : null}, ${v.discord}, ${new Date(now - (400 - index * 30) * DAY)})`);

      for (const [i, p] of (demoProducts[v.vendorUrl] ?? []).entries()) {
        const id = newId('prd');
        const priceIds = p.prices.map(() => newId('price'));
        const createdAt = new Date(now - Math.floor(random() * 300 + i) * DAY);
        // Ratings come from reviews (ADR 036). The draws that made them up stay, so every later
        // product keeps the sales and dates it was seeded with.
        if (Math.floor(random() * 120)) random();
        // The platform's plans say exactly what they grant (ADR 027), nothing generic.
        const plan = Object.values(plans).find((x) => x.slug === slugify(p.title));
        const description = plan
          ? `## What you get\n\n${planFeatures(plan)
              .map((f) => `- ${f}`)
              .join('\n')}`
          : demoDescription(p, v);
        await tx.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary, description, tags,
            platforms, asset_classes, is_active, default_price_id, sort_amount, sales_count, rating_average, rating_count, created_at, updated_at,
            published_at)
          values (${id}, ${vendorId}, ${p.kind}, ${categoryOfKind[p.kind]}, ${slugify(p.title)}, ${p.title}, ${p.summary}, ${description},
            ${sql.param(p.tags)}::text[], ${sql.param(p.platforms)}::text[], ${sql.param(p.assets)}::text[], true, ${priceIds[0]}, ${p.prices[0]!.amount},
            ${Math.floor(random() * 900)}, 0, 0, ${createdAt}, ${createdAt}, ${createdAt})`);
        for (const [pi, price] of p.prices.entries()) {
          await tx.execute(sql`insert into prices (id, product_id, amount, currency, scheme, interval, trial_days, position)
            values (${priceIds[pi]}, ${id}, ${price.amount}, 'usd', ${price.scheme}, ${price.interval ?? null}, ${price.trialDays ?? null}, ${pi})`);
        }
        productIds.set(p.title, {
          id,
          vendorId,
          priceId: priceIds[0]!,
          amount: p.prices[0]!.amount,
        });
      }
    }
    // One retired product, so "inactive products are hidden" is visible in the demo too.
    const retired = productIds.get('Volume Weighted MACD');
    if (retired)
      await tx.execute(sql`update products set is_active = false where id = ${retired.id}`);

    for (const b of demoBundles) {
      const first = productIds.get(b.products[0]!)!;
      const bundleId = newId('bnd');
      const priceId = newId('price');
      await tx.execute(sql`insert into bundles (id, vendor_id, slug, title, summary, description, price_id, published_at)
        values (${bundleId}, ${first.vendorId}, ${slugify(b.title)}, ${b.title}, ${b.summary}, ${b.summary}, ${priceId}, now())`);
      await tx.execute(
        sql`insert into prices (id, bundle_id, amount, currency, scheme) values (${priceId}, ${bundleId}, ${b.amount}, 'usd', 'one_time')`,
      );
      for (const title of b.products) {
        await tx.execute(
          sql`insert into bundle_items (bundle_id, product_id) values (${bundleId}, ${productIds.get(title)!.id})`,
        );
      }
    }
    for (const [product, requires] of demoPrerequisites) {
      await tx.execute(sql`insert into product_prerequisites (product_id, requires_product_id)
        values (${productIds.get(product)!.id}, ${productIds.get(requires)!.id})`);
    }
    if (options.buyerEmail) {
      const owned = productIds.get('Supertrend Ribbon');
      const buyer = await tx.execute(
        sql`select id from users where lower(email) = lower(${options.buyerEmail})`,
      );
      const buyerId = (buyer.rows[0] as { id: string } | undefined)?.id;
      if (owned && buyerId) {
        await tx.execute(
          sql`insert into ownerships (id, user_id, product_id, source) values (${newId('own')}, ${buyerId}, ${owned.id}, 'demo')`,
        );
      }
    }
  });
  return true;
}

const WORDS = {
  adj: [
    'Adaptive',
    'Smart',
    'Pro',
    'Quantum',
    'Precision',
    'Dynamic',
    'Elite',
    'Turbo',
    'Hidden',
    'Institutional',
    'Volatility',
    'Momentum',
    'Trend',
    'Fractal',
    'Harmonic',
    'Zero-Lag',
    'Multi-Timeframe',
    'Liquidity',
    'Sniper',
    'Macro',
  ],
  noun: [
    'RSI',
    'MACD',
    'Supertrend',
    'VWAP',
    'Bollinger',
    'Ichimoku',
    'Stochastic',
    'Fibonacci',
    'Pivot',
    'Order Block',
    'Volume Profile',
    'Delta',
    'Keltner',
    'ATR',
    'Heikin Ashi',
    'Market Structure',
    'Breakout',
    'Divergence',
    'Gap',
    'Squeeze',
  ],
  type: [
    'Indicator',
    'Scanner',
    'Alerts',
    'Signals',
    'Suite',
    'Toolkit',
    'Oscillator',
    'Bands',
    'Levels',
    'Dashboard',
  ],
};

/**
 * `npm run db:seed:large -- --products N`: a large synthetic catalogue for benchmarks, generated in
 * SQL so 100,000 products take seconds, not minutes. `first` numbers the products from there, so a
 * catalogue grown in steps (the catalogue bench's sizes) holds the products one seed of its size would.
 */
export async function seedLargeCatalog(db: Db, products: number, first = 1): Promise<void> {
  const vendors = Math.max(10, Math.ceil(products / 200));
  const kinds = ['indicator', 'scanner', 'alert', 'community', 'course', 'app'];
  const cats = kinds.map((k) => categoryOfKind[k as keyof typeof categoryOfKind]);
  const platforms = ['tradingview', 'mt4', 'mt5', 'ninjatrader', 'ctrader', 'other'];
  const owner = newId('large');
  await db.transaction(async (tx) => {
    // One owner account per vendor (a user runs at most one storefront); none of them can sign in.
    await tx.execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
      select 'usr_l' || ${owner} || '_' || g, 'large-' || lower(${owner}) || '-' || g || '@vendors.tradeshelf.test', 'locked',
        array['vendor']::text[], now()
      from generate_series(1, ${vendors}) g`);
    await tx.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio)
      select 'ven_l' || ${owner} || '_' || g, 'usr_l' || ${owner} || '_' || g,
        'large-' || regexp_replace(lower(${owner}), '[^a-z0-9]', '', 'g') || '-' || g, 'Bench Vendor ' || g, 'Synthetic vendor'
      from generate_series(1, ${vendors}) g`);
    await tx.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary, description, tags, platforms,
        asset_classes, default_price_id, sort_amount, sales_count, rating_average, rating_count, created_at, published_at)
      select 'prd_l' || ${owner} || '_' || g,
        'ven_l' || ${owner} || '_' || (1 + g % ${vendors}),
        (${sql.param(kinds)}::text[])[1 + g % 6],
        (${sql.param(cats)}::text[])[1 + g % 6],
        'p-' || g,
        t.title,
        'Synthetic ' || lower(t.title) || ' for benchmark searches.',
        'A generated product used to measure search and listing performance. ' || t.title,
        array[lower((${sql.param(WORDS.noun)}::text[])[1 + (g * 7) % 20]), lower((${sql.param(WORDS.type)}::text[])[1 + (g * 3) % 10])],
        array[(${sql.param(platforms)}::text[])[1 + g % 6]],
        array[(${sql.param([...assetClasses])}::text[])[1 + (g * 5) % 7]],
        'price_l' || ${owner} || '_' || g,
        500 + (g * 37) % 30000,
        (g * 13) % 1000,
        round((3 + ((g * 17) % 200) / 100.0)::numeric, 2),
        (g * 11) % 300,
        now() - ((g % 1000) || ' days')::interval,
        now() - ((g % 1000) || ' days')::interval
      from generate_series(${first}::int, ${first + products - 1}::int) g,
      lateral (select (${sql.param(WORDS.adj)}::text[])[1 + (g * 31) % 20] || ' ' || (${sql.param(WORDS.noun)}::text[])[1 + (g * 7) % 20] || ' ' ||
                      (${sql.param(WORDS.type)}::text[])[1 + (g * 3) % 10] || ' ' || g as title) t`);
    await tx.execute(sql`insert into prices (id, product_id, amount, currency, scheme, interval)
      select 'price_l' || ${owner} || '_' || g, 'prd_l' || ${owner} || '_' || g, 500 + (g * 37) % 30000, 'usd',
        case when g % 3 = 0 then 'one_time' else 'recurring' end, case when g % 3 = 0 then null else 'month' end
      from generate_series(${first}::int, ${first + products - 1}::int) g`);
  });
  await db.execute(sql`analyze products`);
  await db.execute(sql`analyze prices`);
}

// The demo pictures are part of the demo seed (ADR 026).
export { attachDemoPictures, renderDemoPictures } from './demo-pictures.ts';

/** Idempotent: the demo buyer owns what their demo purchase bought (the product page says so). */
export async function seedDemoOwnership(db: Db, userId: string, productId: string): Promise<void> {
  await db.execute(sql`insert into ownerships (id, user_id, product_id, source)
    select ${newId('own')}, ${userId}, ${productId}, 'demo'
    where not exists (select 1 from ownerships where user_id = ${userId} and product_id = ${productId})`);
}

/** A demo product's id by its title (demo titles are unique). */
export async function demoProductId(db: Db, title: string): Promise<string | null> {
  const found = await db.execute<{ id: string }>(
    sql`select id from products where title = ${title} order by created_at limit 1`,
  );
  return found.rows[0]?.id ?? null;
}
