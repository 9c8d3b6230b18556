import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../integrations/storage/port.ts';
import { renderSvgImage, svgImageRef } from '../../platform/images.ts';
import { demoBundles, demoProducts, demoVendors } from './demo-data.ts';
import {
  bundleSvg,
  COVER,
  LOGO,
  logoSvg,
  productSvgs,
  SHARE,
  vendorCardSvg,
  type ProductPicture,
} from './demo-images.ts';
import { slugify } from './slug.ts';

/**
 * The demo catalogue's pictures (ADR 026): which image each demo row gets, and rendering them into
 * storage. References are content hashes of the SVGs, so the plan is known without rendering and a
 * restart renders nothing it has already stored.
 */

interface Planned {
  ref: string;
  svg: string;
}

export interface DemoPicturePlan {
  /** By `vendorUrl/slug`: cover first, then the gallery. */
  products: Map<string, Planned[]>;
  bundles: Map<string, Planned>;
  vendors: Map<string, { logo: Planned; card: Planned }>;
}

const plan = (prefix: string, svg: string, w: number, h: number): Planned => ({
  ref: svgImageRef(prefix, svg, w, h).ref,
  svg,
});

type DemoVendor = (typeof demoVendors)[number];
type DemoProduct = (typeof demoProducts)[string][number];

/** What a demo product's pictures are drawn from: the product and the vendor selling it. */
export const demoPicture = (v: DemoVendor, p: DemoProduct): ProductPicture => ({
  title: p.title,
  kind: p.kind,
  platforms: p.platforms,
  assets: p.assets,
  tags: p.tags,
  vendorName: v.displayName,
  community: v.discord,
});

let cached: DemoPicturePlan | null = null;

export function demoPicturePlan(): DemoPicturePlan {
  if (cached) return cached;
  const products = new Map<string, Planned[]>();
  const bundles = new Map<string, Planned>();
  const vendors = new Map<string, { logo: Planned; card: Planned }>();
  const pictures = new Map<string, { picture: ProductPicture; amount: number }>();
  for (const v of demoVendors) {
    const list = demoProducts[v.vendorUrl] ?? [];
    for (const p of list) {
      const picture = demoPicture(v, p);
      pictures.set(p.title, { picture, amount: p.prices[0]!.amount });
      products.set(
        `${v.vendorUrl}/${slugify(p.title)}`,
        productSvgs(picture).map((svg) =>
          plan('public/demo/products', svg, COVER.width, COVER.height),
        ),
      );
    }
    vendors.set(v.vendorUrl, {
      logo: plan('public/demo/vendors', logoSvg(v.displayName), LOGO, LOGO),
      card: plan(
        'public/demo/vendors',
        vendorCardSvg({ displayName: v.displayName }),
        SHARE.width,
        SHARE.height,
      ),
    });
  }
  for (const b of demoBundles) {
    const items = b.products.map((t) => pictures.get(t)!);
    const value = items.reduce((sum, i) => sum + i.amount, 0);
    const svg = bundleSvg({
      title: b.title,
      vendorName: demoVendors.find((v) => v.vendorUrl === b.vendorUrl)!.displayName,
      products: items.map((i) => i.picture),
      savingPercent: value > b.amount ? Math.round((1 - b.amount / value) * 100) : 0,
    });
    bundles.set(
      `${b.vendorUrl}/${slugify(b.title)}`,
      plan('public/demo/bundles', svg, COVER.width, COVER.height),
    );
  }
  cached = { products, bundles, vendors };
  return cached;
}

/**
 * Points demo rows that have no pictures at theirs: a fresh seed and a database seeded before
 * pictures existed end up the same. Rows a vendor has given pictures are left alone.
 */
export async function attachDemoPictures(db: Db): Promise<void> {
  const p = demoPicturePlan();
  const productKeys = [...p.products.keys()];
  await db.execute(sql`update products pr set images = array_remove(array[x.cover, x.second], null), updated_at = now()
    from vendors v, unnest(${sql.param(productKeys.map((k) => k.split('/')[0]!))}::text[],
      ${sql.param(productKeys.map((k) => k.split('/')[1]!))}::text[],
      ${sql.param(productKeys.map((k) => p.products.get(k)![0]!.ref))}::text[],
      ${sql.param(productKeys.map((k) => p.products.get(k)![1]?.ref ?? null))}::text[]) as x(vendor_url, slug, cover, second)
    where pr.vendor_id = v.id and v.vendor_url = x.vendor_url and pr.slug = x.slug and pr.images = '{}'`);
  const bundleKeys = [...p.bundles.keys()];
  await db.execute(sql`update bundles b set image_key = x.ref
    from vendors v, unnest(${sql.param(bundleKeys.map((k) => k.split('/')[0]!))}::text[],
      ${sql.param(bundleKeys.map((k) => k.split('/')[1]!))}::text[],
      ${sql.param(bundleKeys.map((k) => p.bundles.get(k)!.ref))}::text[]) as x(vendor_url, slug, ref)
    where b.vendor_id = v.id and v.vendor_url = x.vendor_url and b.slug = x.slug and b.image_key is null`);
  const vendorKeys = [...p.vendors.keys()];
  await db.execute(sql`update vendors v set avatar_key = coalesce(v.avatar_key, x.logo),
      banner_key = coalesce(v.banner_key, x.card)
    from unnest(${sql.param(vendorKeys)}::text[],
      ${sql.param(vendorKeys.map((k) => p.vendors.get(k)!.logo.ref))}::text[],
      ${sql.param(vendorKeys.map((k) => p.vendors.get(k)!.card.ref))}::text[]) as x(vendor_url, logo, card)
    where v.vendor_url = x.vendor_url and (v.avatar_key is null or v.banner_key is null)`);
}

/** Every planned picture, in a stable order. */
export function allDemoPictures(): Planned[] {
  const p = demoPicturePlan();
  return [
    ...[...p.products.values()].flat(),
    ...p.bundles.values(),
    ...[...p.vendors.values()].flatMap((v) => [v.logo, v.card]),
  ];
}

/**
 * Renders the pictures storage does not hold yet, two at a time (libvips spreads each over the
 * cores too). Returns what it did and how long it took.
 */
export async function renderDemoPictures(
  storage: Storage,
  options: { pictures?: Planned[]; cacheDir?: string | null; concurrency?: number } = {},
): Promise<{ rendered: number; copied: number; stored: number; ms: number }> {
  const pictures = options.pictures ?? allDemoPictures();
  const cacheDir = options.cacheDir === undefined ? DEFAULT_CACHE : (options.cacheDir ?? undefined);
  const started = performance.now();
  const counts = { rendered: 0, copied: 0, stored: 0 };
  let next = 0;
  const worker = async () => {
    while (next < pictures.length) {
      const item = pictures[next++]!;
      counts[await renderSvgImage(storage, item.svg, item.ref, cacheDir)]++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  return { ...counts, ms: Math.round(performance.now() - started) };
}

/**
 * In the checkout's git-ignored `.cache/`: survives new data directories and `npm ci` (which empties
 * node_modules, so CI drew every picture on each run); `git clean -fdx` removes it.
 */
const DEFAULT_CACHE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../.cache/tradeshelf/demo-pictures',
);
