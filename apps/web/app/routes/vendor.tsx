import { redirect } from 'react-router';
import { reviewSorts, type ReviewSort } from '@tradeshelf/contract/client';
import { ProductGrid } from '../features/catalog/components.tsx';
import { useOwnedList } from '../features/catalog/hooks.ts';
import { REVIEWS_PAGE } from '../features/reviews/api.ts';
import { reviewsJsonLd } from '../features/reviews/json-ld.ts';
import { deferredView } from '../lib/deferred-view.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { countLabel, utcMonthLabel } from '../lib/format.ts';
import { Picture, shareImage } from '../lib/images.tsx';
import { PictureOrLetters } from '../components/ui.tsx';
import { breadcrumbs, originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/vendor';

// Below the products: its code loads as it nears the screen (ADR 070).
const VendorReviews = deferredView(() =>
  import('../features/reviews/components.tsx').then((m) => m.VendorReviews),
);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const vendorUrl = params.vendorUrl;
  const asked = new URL(request.url).searchParams.get('reviewSort');
  const reviewSort: ReviewSort = reviewSorts.find((s) => s === asked) ?? 'newest';
  const profile = loadFrom(context, request, routes.vendorProfile, { query: { vendorUrl } });
  const rest = Promise.all([
    loadFrom(context, request, routes.sellerProductList, {
      query: { vendorUrl, isActive: 'true' },
    }),
    loadFrom(context, request, routes.allReviews, {
      query: { vendorUrl, sort: reviewSort, limit: REVIEWS_PAGE },
    }),
  ]);
  // An earlier address (or another spelling) of a storefront moves to its address for good (ADR
  // 041); the other reads, which know only current addresses, are then not needed.
  rest.catch(() => undefined);
  const { vendor } = await profile;
  if (vendor.vendorUrl !== vendorUrl) {
    const search = new URL(request.url).search;
    throw redirect(`/v/${encodeURIComponent(vendor.vendorUrl)}${search}`, 301);
  }
  const [list, reviews] = await rest;
  return { vendor, ...list, reviews, reviewSort };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const origin = originOf(matches);
  const path = `/v/${encodeURIComponent(data.vendor.vendorUrl)}`;
  return seo({
    title: `${data.vendor.displayName}: trading tools and communities`,
    description:
      data.vendor.bio ||
      `${data.vendor.displayName} sells ${countLabel(data.products.length, 'product')} on Tradeshelf.`,
    path,
    origin,
    type: 'profile',
    // Its banner (for demo storefronts, a generated decoration), else its first cover.
    image:
      shareImage(
        data.vendor.banner,
        data.vendor.bannerUrl,
        `${data.vendor.displayName} on Tradeshelf`,
      ) ??
      shareImage(
        data.products[0]?.image ?? null,
        data.products[0]?.imageUrl ?? null,
        `${data.vendor.displayName} on Tradeshelf`,
      ),
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: data.vendor.displayName,
        url: origin + path,
        description: data.vendor.bio,
        // Only from reviews that exist (ADR 036).
        ...(data.reviews.summary.count > 0
          ? {
              aggregateRating: {
                '@type': 'AggregateRating',
                ratingValue: data.reviews.summary.average.toFixed(2),
                reviewCount: data.reviews.summary.count,
                bestRating: 5,
                worstRating: 1,
              },
              review: reviewsJsonLd(data.reviews.reviews),
            }
          : {}),
      },
      breadcrumbs(origin, [
        ['Home', '/'],
        [data.vendor.displayName, path],
      ]),
    ],
  });
};

export default function Vendor({ loaderData }: Route.ComponentProps) {
  const { vendor } = loaderData;
  const { products, bundles } = useOwnedList(vendor.id, vendor.vendorUrl, loaderData);
  const links = Object.entries(vendor.socialLinks);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8">
      <section className="overflow-hidden rounded-2xl border border-ink-700 bg-ink-900">
        {vendor.banner ? (
          <Picture
            image={vendor.banner}
            alt=""
            sizes="(min-width: 1152px) 1152px, 100vw"
            priority
            className="h-40 w-full object-cover sm:h-56"
          />
        ) : vendor.bannerUrl ? (
          <img src={vendor.bannerUrl} alt="" className="h-40 w-full object-cover sm:h-56" />
        ) : (
          <div
            aria-hidden
            className="h-32 bg-gradient-to-r from-brand-600/40 via-indigo-600/30 to-fuchsia-600/30 sm:h-44"
          />
        )}
        <div className="flex flex-col gap-3 p-6">
          <div className="flex items-center gap-4">
            {/* The vendor's logo (a 256 px square JPEG, ADR 026), set on the workspace's storefront page. */}
            <PictureOrLetters
              src={vendor.avatarUrl}
              size={64}
              box="h-16 w-16 rounded-full border border-ink-600"
            />
            <h1 className="text-3xl font-extrabold text-white">
              {vendor.displayName}{' '}
              {vendor.verified && (
                <span className="align-middle text-base text-brand-400" title="Verified vendor">
                  ✓ Verified
                </span>
              )}
            </h1>
          </div>
          {vendor.bio && (
            <p className="max-w-3xl whitespace-pre-line text-slate-300">{vendor.bio}</p>
          )}
          <div className="flex flex-wrap gap-4 text-sm text-slate-400">
            {/* Counted from the lists below: what a visitor sees is what the page counts. */}
            <span data-testid="storefront-counts">
              {countLabel(products.length, 'product')}
              {bundles.length > 0 && ` · ${countLabel(bundles.length, 'bundle')}`}
            </span>
            {vendor.discordServer && <span>Discord: {vendor.discordServer.name}</span>}
            <span>Selling since {utcMonthLabel(vendor.createdAt)}</span>
            {links.map(([name, href]) => (
              <a
                key={name}
                href={href}
                rel="nofollow noopener noreferrer"
                target="_blank"
                className="text-brand-400 underline underline-offset-2 hover:decoration-2"
              >
                {name === 'x' ? 'X' : name.charAt(0).toUpperCase() + name.slice(1)}
              </a>
            ))}
          </div>
        </div>
      </section>
      {bundles.length > 0 && (
        <section aria-labelledby="bundles">
          <h2 id="bundles" className="text-xl font-bold text-white">
            Bundles
          </h2>
          <div className="mt-4">
            <ProductGrid products={[]} bundles={bundles} eager={4} />
          </div>
        </section>
      )}
      <section aria-labelledby="products">
        <h2 id="products" className="text-xl font-bold text-white">
          Products
        </h2>
        <div className="mt-4">
          {products.length ? (
            <ProductGrid products={products} eager={bundles.length ? 0 : 4} />
          ) : (
            <p className="text-slate-400">No products listed yet.</p>
          )}
        </div>
      </section>
      <VendorReviews
        key={vendor.vendorUrl}
        vendor={vendor}
        initial={loaderData.reviews}
        initialSort={loaderData.reviewSort}
      />
    </div>
  );
}
