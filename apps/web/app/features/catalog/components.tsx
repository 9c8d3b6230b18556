import { Link } from 'react-router';
import { categoryLabels, platformLabels } from '@tradeshelf/contract/client';
import type {
  BundleCard,
  ProductCard,
  ResponsiveImage,
  VendorProfile,
  VendorSummary,
} from '@tradeshelf/contract';
import { Picture } from '../../lib/images.tsx';
import { countLabel, formatMoney, formatPrice, trialLabel } from '../../lib/format.ts';
import { bundlePath, productPath, vendorPath } from '../../lib/paths.ts';
import { PictureOrLetters } from '../../components/ui.tsx';

export { bundlePath, productPath, vendorPath };

const kindGradient: Record<string, string> = {
  indicator: 'from-teal-500/40 to-sky-600/30',
  scanner: 'from-violet-500/40 to-fuchsia-600/30',
  alert: 'from-amber-500/40 to-rose-600/30',
  community: 'from-indigo-500/40 to-blue-600/30',
  course: 'from-emerald-500/40 to-lime-600/30',
  app: 'from-slate-400/40 to-cyan-600/30',
};

/** Phones show two tiles a row, tablets two to three, desktops four in a 72rem column. */
export const TILE_SIZES =
  '(min-width: 1152px) 270px, (min-width: 1024px) 24vw, (min-width: 640px) 48vw, 50vw';

/**
 * A product's or bundle's cover in a 16:9 box: its stored image, a legacy file, or (no picture yet)
 * the kind's gradient with the title.
 */
export function Cover({
  kind,
  title,
  image,
  imageUrl,
  sizes = TILE_SIZES,
  priority = false,
  eager = false,
  alt = '',
  className = '',
}: {
  kind: string;
  title: string;
  image: ResponsiveImage | null;
  imageUrl: string | null;
  sizes?: string;
  priority?: boolean;
  /** Loaded at once but at normal priority (first-screen tiles). */
  eager?: boolean;
  alt?: string;
  className?: string;
}) {
  if (image)
    return (
      <Picture
        image={image}
        alt={alt}
        sizes={sizes}
        priority={priority}
        eager={eager}
        className={`aspect-[16/9] h-auto w-full bg-ink-800 object-cover ${className}`}
      />
    );
  if (imageUrl)
    return (
      <img
        src={imageUrl}
        alt={alt}
        width={1200}
        height={675}
        className={`aspect-[16/9] h-auto w-full bg-ink-800 object-cover ${className}`}
        loading={priority || eager ? 'eager' : 'lazy'}
      />
    );
  return (
    <div
      aria-hidden
      className={`flex aspect-[16/9] w-full items-end bg-gradient-to-br p-4 ${kindGradient[kind] ?? kindGradient.app} ${className}`}
    >
      <span className="line-clamp-2 text-lg font-extrabold text-white/90">{title}</span>
    </div>
  );
}

export function Stars({ average, count }: { average: number; count: number }) {
  if (!count) return <span className="text-xs text-slate-400">No reviews yet</span>;
  return (
    <span
      className="text-xs text-amber-300"
      aria-label={`Rated ${average.toFixed(1)} out of 5 from ${countLabel(count, 'review')}`}
    >
      ★ {average.toFixed(1)} <span className="text-slate-400">({count})</span>
    </span>
  );
}

export function VendorByline({ vendor }: { vendor: VendorSummary }) {
  return (
    <span className="text-xs text-slate-400">
      by{' '}
      <Link to={vendorPath(vendor)} className="font-medium text-slate-300 hover:text-brand-300">
        {vendor.displayName}
      </Link>
      {vendor.verified && (
        <span className="ml-1 text-brand-400" title="Verified vendor" aria-label="verified">
          ✓
        </span>
      )}
    </span>
  );
}

/** `eager`: the tile is in the first screen, so its cover should not wait for layout. */
export function ProductTile({ product, eager = false }: { product: ProductCard; eager?: boolean }) {
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border border-ink-700 bg-ink-900 transition hover:border-brand-500/60">
      <Link to={productPath(product)} className="block" tabIndex={-1} aria-hidden>
        <Cover
          kind={product.kind}
          title={product.title}
          image={product.image}
          imageUrl={product.imageUrl}
          eager={eager}
        />
      </Link>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:gap-2 sm:p-4">
        <div className="flex flex-wrap items-center gap-1.5 text-xs sm:gap-2">
          <span className="rounded bg-ink-700 px-1.5 py-0.5 font-medium text-slate-300">
            {categoryLabels[product.category]}
          </span>
          {product.purchased && (
            <span className="rounded bg-brand-500/20 px-1.5 py-0.5 font-semibold text-brand-300">
              Purchased
            </span>
          )}
        </div>
        <h3 className="line-clamp-2 text-sm font-semibold text-white sm:text-base">
          <Link to={productPath(product)} className="hover:text-brand-300">
            {product.title}
          </Link>
        </h3>
        {/* Phones show two tiles a row: the summary and platforms wait for the product page. */}
        <p className="line-clamp-2 hidden text-sm text-slate-400 sm:block">{product.summary}</p>
        <VendorByline vendor={product.vendor} />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 pt-1 sm:pt-2">
          <span className="text-sm font-semibold text-white">{formatPrice(product.price)}</span>
          <Stars {...product.rating} />
        </div>
        {product.platforms.length > 0 && (
          <p className="hidden text-xs text-slate-400 sm:block">
            {product.platforms.map((p) => platformLabels[p]).join(' · ')}
          </p>
        )}
      </div>
    </article>
  );
}

/** `eager`: as for `ProductTile`. */
export function BundleTile({ bundle, eager = false }: { bundle: BundleCard; eager?: boolean }) {
  const saving = bundle.valueAmount - bundle.price.amount;
  return (
    <article className="flex w-full flex-col overflow-hidden rounded-2xl border border-amber-500/30 bg-ink-900">
      {(bundle.image || bundle.imageUrl) && (
        <Link to={bundlePath(bundle)} className="block" tabIndex={-1} aria-hidden>
          <Cover
            kind="bundle"
            title={bundle.title}
            image={bundle.image}
            imageUrl={bundle.imageUrl}
            eager={eager}
          />
        </Link>
      )}
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:gap-2 sm:p-4">
        <span className="self-start rounded bg-amber-500/20 px-1.5 py-0.5 text-xs font-semibold text-amber-200">
          Bundle · {countLabel(bundle.productIds.length, 'product')}
        </span>
        <h3 className="line-clamp-2 text-sm font-semibold text-white sm:text-base">
          <Link to={bundlePath(bundle)} className="hover:text-brand-300">
            {bundle.title}
          </Link>
        </h3>
        <p className="line-clamp-2 hidden text-sm text-slate-400 sm:block">{bundle.summary}</p>
        <VendorByline vendor={bundle.vendor} />
        <div className="mt-auto flex flex-wrap items-baseline gap-x-2 pt-1 sm:pt-2">
          <span className="font-semibold text-white">
            {formatMoney(bundle.price.amount, bundle.price.currency)}
          </span>
          {saving > 0 && (
            <span className="text-xs text-slate-400 line-through">
              {formatMoney(bundle.valueAmount, bundle.price.currency)}
            </span>
          )}
          {bundle.purchased && (
            <span className="ml-auto rounded bg-brand-500/20 px-1.5 py-0.5 text-xs font-semibold text-brand-300">
              Purchased
            </span>
          )}
        </div>
      </div>
    </article>
  );
}

const gridList = 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4';
/** Phones: one swipeable row, two tiles and a bit in view; wider screens: the grid. */
const railList =
  '-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:gap-4 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-4';

export function ProductGrid({
  products,
  bundles = [],
  layout = 'grid',
  eager = 0,
}: {
  products: ProductCard[];
  bundles?: BundleCard[];
  layout?: 'grid' | 'rail';
  /** How many leading tiles (bundles first) are in the first screen (their covers load at once). */
  eager?: number;
}) {
  const item = `flex [&>article]:w-full ${layout === 'rail' ? 'w-[44%] shrink-0 snap-start sm:w-auto' : ''}`;
  return (
    <ul className={layout === 'rail' ? railList : gridList}>
      {bundles.map((b, i) => (
        <li key={b.id} className={item}>
          <BundleTile bundle={b} eager={i < eager} />
        </li>
      ))}
      {products.map((p, i) => (
        <li key={p.id} className={item}>
          <ProductTile product={p} eager={bundles.length + i < eager} />
        </li>
      ))}
    </ul>
  );
}

export function VendorTile({ vendor }: { vendor: VendorProfile }) {
  return (
    <Link
      to={vendorPath(vendor)}
      className="flex items-center gap-2 rounded-xl border border-ink-700 bg-ink-900 p-3 hover:border-brand-500/60 sm:gap-3 sm:p-4"
    >
      <PictureOrLetters
        src={vendor.avatarUrl}
        letters={vendor.displayName.slice(0, 1)}
        size={40}
        box="h-8 w-8 rounded-full sm:h-10 sm:w-10"
        lazy
      />
      <span className="min-w-0">
        <span className="block truncate text-sm font-semibold text-white sm:text-base">
          {vendor.displayName} {vendor.verified && <span className="text-brand-400">✓</span>}
        </span>
        <span className="text-xs text-slate-400">{countLabel(vendor.productCount, 'product')}</span>
      </span>
    </Link>
  );
}

export { formatPrice, trialLabel };
