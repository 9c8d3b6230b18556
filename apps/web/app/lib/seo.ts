export const SITE_NAME = 'Tradeshelf';
export const SITE_DESCRIPTION =
  'The marketplace for trading tools: indicators, scanners, alerts, Discord communities, courses and licensed apps from independent vendors.';

/** Page <title> and description in one place, so every page is unique and consistent. */
export function pageMeta(title: string, description = SITE_DESCRIPTION) {
  const full = title
    ? `${title} · ${SITE_NAME}`
    : `${SITE_NAME}: trading tools, communities and courses`;
  return [
    { title: full },
    { name: 'description', content: description },
    { property: 'og:title', content: full },
    { property: 'og:description', content: description },
    { property: 'og:site_name', content: SITE_NAME },
    { name: 'twitter:card', content: 'summary' },
  ];
}

/** Site-wide structured data: the organisation and the site search box. */
export function siteJsonLd(origin: string) {
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: SITE_NAME,
      url: origin + '/',
    },
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: SITE_NAME,
      url: origin + '/',
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${origin}/search?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    },
  ];
}

/** JSON for a <script type="application/ld+json">, with `<` escaped so it cannot close the tag. */
export function jsonLdString(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
