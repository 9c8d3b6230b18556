import { SITE_DESCRIPTION, SITE_NAME } from './seo.ts';

type Match = { id: string; data?: unknown } | undefined;

/** The site origin the root loader saw, for canonical URLs and structured data. */
export function originOf(matches: readonly Match[]): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { origin?: string } | undefined;
  return root?.origin ?? '';
}

/** Title, description, canonical, Open Graph, Twitter card and JSON-LD for one page. */
export function seo(options: {
  title: string;
  description?: string;
  path: string;
  origin: string;
  type?: 'website' | 'product' | 'profile';
  /** The share card: absolute or origin-relative URL, with its size and a description. */
  image?: { url: string; width?: number; height?: number; alt: string } | null;
  jsonLd?: unknown[];
  noindex?: boolean;
}) {
  const full = options.title
    ? `${options.title} · ${SITE_NAME}`
    : `${SITE_NAME}: trading tools, communities and courses`;
  const description = (options.description ?? SITE_DESCRIPTION).slice(0, 300);
  const url = options.origin + options.path;
  return [
    { title: full },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: options.type ?? 'website' },
    { property: 'og:title', content: full },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: SITE_NAME },
    ...imageMeta(options.origin, options.image),
    { name: 'twitter:card', content: options.image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: full },
    { name: 'twitter:description', content: description },
    ...(options.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    ...(options.jsonLd ?? []).map((d) => ({ 'script:ld+json': d })),
  ];
}

/** Share cards need absolute URLs; media on a CDN already are. */
function imageMeta(
  origin: string,
  image: { url: string; width?: number; height?: number; alt: string } | null | undefined,
) {
  if (!image) return [];
  const url = /^https?:\/\//.test(image.url) ? image.url : origin + image.url;
  return [
    { property: 'og:image', content: url },
    ...(url.startsWith('https:') ? [{ property: 'og:image:secure_url', content: url }] : []),
    ...(url.endsWith('.jpg') ? [{ property: 'og:image:type', content: 'image/jpeg' }] : []),
    ...(image.width && image.height
      ? [
          { property: 'og:image:width', content: String(image.width) },
          { property: 'og:image:height', content: String(image.height) },
        ]
      : []),
    { property: 'og:image:alt', content: image.alt },
    { name: 'twitter:image', content: url },
    { name: 'twitter:image:alt', content: image.alt },
  ];
}

export function breadcrumbs(origin: string, items: Array<[string, string]>) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map(([name, path], i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name,
      item: origin + path,
    })),
  };
}

/** Cache public SSR pages briefly at the CDN; signed-in state lives in the browser, not in this HTML. */
export const publicPageHeaders = () => ({
  'cache-control': 'public, max-age=60, s-maxage=300, stale-while-revalidate=600',
});
