import {
  bundlePath,
  catalogCategories,
  planIds,
  plans,
  PLATFORM_VENDOR_URL,
  productPath,
  storefrontPath,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/origin.ts';
import { rows } from './repository.ts';

/** URLs per sitemap file (the protocol allows 50,000; smaller files regenerate faster). */
export const SITEMAP_PAGE_SIZE = 10_000;

const xmlEscape = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/**
 * Products listed under their own address: the platform's plans are sold on /premium and /pro-plus
 * (pages.xml), and their /p/ addresses only redirect there (issue 27).
 */
const planSlugs = sql.join(
  planIds.map((id) => sql`${plans[id].slug}`),
  sql`, `,
);
const ownPage = sql`not (p.slug in (${planSlugs})
  and p.vendor_id = (select id from vendors where vendor_url = ${PLATFORM_VENDOR_URL}))`;

/** robots.txt and a paged sitemap of vendors, active products and active bundles, for search engines. */
export async function sitemapRoutes(app: FastifyInstance): Promise<void> {
  const db = app.deps.database.db;

  app.get('/robots.txt', { schema: { hide: true } }, async (req, reply) => {
    const origin = originOf(req);
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        [
          'User-agent: *',
          'Allow: /',
          'Disallow: /account',
          'Disallow: /api/',
          'Disallow: /dev/',
          `Sitemap: ${origin}/sitemap.xml`,
          '',
        ].join('\n'),
      );
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async (req, reply) => {
    const origin = originOf(req);
    const [count] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from products p where p.is_active and ${ownPage}`,
    );
    const pages = Math.max(1, Math.ceil((count?.n ?? 0) / SITEMAP_PAGE_SIZE));
    const entries = [
      `${origin}/sitemaps/pages.xml`,
      `${origin}/sitemaps/vendors.xml`,
      `${origin}/sitemaps/bundles.xml`,
    ];
    for (let i = 1; i <= pages; i++) entries.push(`${origin}/sitemaps/products-${i}.xml`);
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries
          .map((loc) => `  <sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`)
          .join('\n')}\n</sitemapindex>\n`,
      );
  });

  app.get<{ Params: { name: string } }>(
    '/sitemaps/:name',
    { schema: { hide: true } },
    async (req, reply) => {
      const origin = originOf(req);
      const name = req.params.name;
      let urls: Array<{ loc: string; lastmod?: string }>;
      if (name === 'pages.xml') {
        urls = [
          '/',
          '/search',
          '/vendor/login',
          '/premium',
          '/pro-plus',
          '/contact',
          '/terms',
          '/privacy',
          '/refund-policy',
          '/risk-disclosure',
          // The only search pages open to indexing besides /search (ADR 025): one per category.
          ...catalogCategories.map((c) => `/search?category=${c}`),
        ].map((p) => ({ loc: origin + p }));
      } else if (name === 'vendors.xml') {
        const found = await rows<{ vendor_url: string }>(
          db,
          // A storefront with nothing on sale is a thin page: it joins the sitemap with its first product.
          sql`select v.vendor_url from vendors v
              where exists (select 1 from products p where p.vendor_id = v.id and p.is_active and ${ownPage})
                 or exists (select 1 from bundles b where b.vendor_id = v.id and b.is_active)
              order by v.vendor_url limit 50000`,
        );
        urls = found.map((v) => ({ loc: `${origin}${storefrontPath(v.vendor_url)}` }));
      } else if (name === 'bundles.xml') {
        const found = await rows<{ id: string; slug: string }>(
          db,
          sql`select id, slug from bundles where is_active order by id limit 50000`,
        );
        urls = found.map((b) => ({
          loc: `${origin}${bundlePath(b)}`,
        }));
      } else {
        // Pages count from 1 (page 0 would be a negative OFFSET); no leading zeros.
        const m = /^products-([1-9]\d{0,5})\.xml$/.exec(name);
        if (!m) return reply.status(404).send({ error: 'No such sitemap.', code: 'not_found' });
        const page = Number(m[1]);
        const found = await rows<{ id: string; slug: string; updated_at: Date | string }>(
          db,
          sql`select p.id, p.slug, p.updated_at from products p where p.is_active and ${ownPage} order by p.id
            limit ${SITEMAP_PAGE_SIZE} offset ${(page - 1) * SITEMAP_PAGE_SIZE}`,
        );
        if (!found.length && page > 1)
          return reply.status(404).send({ error: 'No such sitemap.', code: 'not_found' });
        urls = found.map((p) => ({
          loc: `${origin}${productPath(p)}`,
          lastmod: new Date(p.updated_at).toISOString().slice(0, 10),
        }));
      }
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
            .map(
              (u) =>
                `  <url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`,
            )
            .join('\n')}\n</urlset>\n`,
        );
    },
  );
}
