// The cover and rating every product page shows; the tiles and grids of lists are in components.tsx,
// which loads with the pages that list things (not with a product's page).
import type { ResponsiveImage } from '@tradeshelf/contract';
import { Picture } from '../../lib/images.tsx';
import { countLabel } from '../../lib/format.ts';

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
