import type { ReactNode } from 'react';
import type { ResponsiveImage } from '@tradeshelf/contract';
import { useHydrated } from './hydrated.ts';

/** `srcset` for one format of a stored image (ADR 026: `${base}/${w}.${ext}`). */
export const srcSetOf = (image: ResponsiveImage, ext: 'avif' | 'webp') =>
  image.widths.map((w) => `${image.base}/${w}.${ext} ${w}w`).join(', ');

/** The largest JPEG: for share cards and browsers without AVIF or WebP. */
export const jpegOf = (image: ResponsiveImage) => `${image.base}/${image.width}.jpg`;

/** Share-card image for `seo()`: the JPEG with its size, or a legacy file's URL without one. */
export function shareImage(
  image: ResponsiveImage | null,
  url: string | null,
  alt: string,
): { url: string; width?: number; height?: number; alt: string } | null {
  if (image) return { url: jpegOf(image), width: image.width, height: image.height, alt };
  return url ? { url, alt } : null;
}

/**
 * A picture off the first screen. The server's HTML and the hydrating render give its box only (with
 * the picture in `<noscript>`), and the picture follows once the page has hydrated: pictures below
 * the fold are not fetched before the first paint, even inside Chrome's lazy-loading margin, and
 * so do not share the network with what is on screen (ADR 069). Client-side navigations render it
 * at once.
 */
export function AfterHydration({
  children,
  placeholder,
}: {
  children: ReactNode;
  /** Classes of the box shown until then (its size, corners and background). */
  placeholder: string;
}) {
  const hydrated = useHydrated();
  if (hydrated) return children;
  return (
    <span aria-hidden className={`block ${placeholder}`}>
      <noscript>{children}</noscript>
    </span>
  );
}

/**
 * A stored image as `<picture>`: AVIF, then WebP, then JPEG, each in every stored width, so the
 * browser fetches the smallest file that fills `sizes`. Width and height are the image's own, so
 * its box is reserved before it loads. `priority` is for the page's largest picture (LCP): loaded
 * at once and first; `eager` for the rest of the first screen; everything else is left out of the
 * first paint (`AfterHydration`) and then waits until it nears the viewport.
 */
export function Picture({
  image,
  alt,
  sizes,
  priority = false,
  eager = false,
  className = '',
}: {
  image: ResponsiveImage;
  alt: string;
  sizes: string;
  priority?: boolean;
  /** In the first screen but not the largest picture: loaded at once, at normal priority. */
  eager?: boolean;
  className?: string;
}) {
  const picture = (
    <picture>
      <source type="image/avif" srcSet={srcSetOf(image, 'avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSetOf(image, 'webp')} sizes={sizes} />
      <img
        src={jpegOf(image)}
        alt={alt}
        width={image.width}
        height={image.height}
        loading={priority || eager ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding={priority ? 'sync' : 'async'}
        className={className}
      />
    </picture>
  );
  if (priority || eager) return picture;
  return <AfterHydration placeholder={className}>{picture}</AfterHydration>;
}
