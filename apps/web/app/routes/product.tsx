import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, redirect, useSearchParams } from 'react-router';
import {
  categoryLabels,
  platformLabels,
  platformPlanOf,
  reviewSorts,
  type ReviewSort,
} from '@tradeshelf/contract/client';
import {
  bundlePath,
  Cover,
  productPath,
  Stars,
  vendorPath,
} from '../features/catalog/components.tsx';
import {
  CheckoutCancelled,
  CheckoutPanel,
  PriceChoice,
  Owned,
  YourItem,
} from '../features/catalog/checkout.tsx';
import { useMissingPrerequisites, useOwnedDetails } from '../features/catalog/hooks.ts';
import { WhatYouGet } from '../features/catalog/what-you-get.tsx';
import { useMemberPrice } from '../features/membership/hooks.ts';
// The checkout step's own file: the product page would otherwise carry the library's views too.
import { useTradingViewStep } from '../features/tradingview/step.tsx';
// Straight from the files, not the feature's index: the reviews' views load as they near the screen.
import { REVIEWS_PAGE } from '../features/reviews/api.ts';
import { reviewsJsonLd } from '../features/reviews/json-ld.ts';
import { ReviewPrompt, useProductRating, useFetchReviewDetails } from '../features/reviews/own.tsx';
import { deferredView } from '../lib/deferred-view.tsx';
import { formatMoney, formatPrice, trialLabel } from '../lib/format.ts';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { MarkdownHtml } from '../lib/markdown.tsx';
import { Picture, shareImage } from '../lib/images.tsx';
import { breadcrumbs, originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/product';

// Below the first screen: its code loads as it nears the screen (ADR 070).
const ProductReviews = deferredView(() =>
  import('../features/reviews/components.tsx').then((m) => m.ProductReviews),
);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  // `?reviewSort=` renders the reviews in that order (links to a sorted list).
  const asked = new URL(request.url).searchParams.get('reviewSort');
  const reviewSort: ReviewSort = reviewSorts.find((s) => s === asked) ?? 'newest';
  const [{ product }, reviews] = await Promise.all([
    loadFrom(context, request, routes.productDetails, { query: { id: params.id } }),
    loadFrom(context, request, routes.allReviews, {
      query: { productId: params.id, sort: reviewSort, limit: REVIEWS_PAGE },
    }),
  ]);
  // A platform plan is sold on its own page (no coupons, no vendor, no platforms): its product URL,
  // and the hosted checkout's cancel link to it, lead there with the query kept.
  const plan = platformPlanOf(product);
  if (plan) throw redirect(plan.path + new URL(request.url).search, 301);
  // One canonical URL per product: a missing or stale slug redirects permanently.
  if (params.slug !== product.slug) throw redirect(productPath(product), 301);
  return { product, reviews, reviewSort };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { product } = data;
  const origin = originOf(matches);
  const path = productPath(product);
  const offers = product.prices.map((p) => ({
    '@type': 'Offer',
    price: (p.amount / 100).toFixed(2),
    priceCurrency: p.currency.toUpperCase(),
    availability: 'https://schema.org/InStock',
    url: origin + path,
    ...(p.scheme === 'recurring'
      ? {
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price: (p.amount / 100).toFixed(2),
            priceCurrency: p.currency.toUpperCase(),
            billingDuration: 1,
            unitCode: { week: 'WEE', month: 'MON', quarter: 'QAN', year: 'ANN' }[
              p.interval ?? 'month'
            ],
          },
        }
      : {}),
  }));
  return seo({
    title: product.title,
    description: product.summary,
    path,
    origin,
    type: 'product',
    image: shareImage(
      product.gallery[0] ?? null,
      product.imageUrl,
      `${product.title}: cover picture`,
    ),
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.title,
        description: product.summary,
        sku: product.id,
        category: categoryLabels[product.category],
        brand: { '@type': 'Brand', name: product.vendor.displayName },
        url: origin + path,
        ...(product.images.length
          ? { image: product.images.map((u) => (/^https?:/.test(u) ? u : origin + u)) }
          : {}),
        offers: offers.length === 1 ? offers[0] : offers,
        // Only from reviews that exist: the rating is the reviews' own (ADR 036).
        ...(product.rating.count > 0
          ? {
              aggregateRating: {
                '@type': 'AggregateRating',
                ratingValue: product.rating.average.toFixed(2),
                reviewCount: product.rating.count,
                bestRating: 5,
                worstRating: 1,
              },
            }
          : {}),
        ...(data.reviews.reviews.length ? { review: reviewsJsonLd(data.reviews.reviews) } : {}),
      },
      breadcrumbs(origin, [
        ['Home', '/'],
        [categoryLabels[product.category], `/search?category=${product.category}`],
        [product.title, path],
      ]),
    ],
  });
};

/**
 * Phones see the buy box first, but with several plans its button falls below the first screen, and
 * it scrolls away with the description. While the buy button is out of view, a bar with the title,
 * the price and the buy action stays at the bottom of the screen (below the wide layout, whose buy
 * box sits beside the description).
 */
function useOutOfView(): [RefObject<HTMLDivElement | null>, boolean | null] {
  const marker = useRef<HTMLDivElement>(null);
  const [out, setOut] = useState<boolean | null>(null);
  useEffect(() => {
    const el = marker.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOut(!entry!.isIntersecting));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [marker, out];
}

function BuyBar({
  title,
  price,
  label,
  visible,
  onGo,
}: {
  title: string;
  price: string;
  label: string;
  /** Brings the buy box's button into view. */
  onGo: () => void;
  /** null before the page's script runs: shown, as phones start with the button out of view. */
  visible: boolean | null;
}) {
  return (
    <div
      hidden={visible === false}
      data-testid="buy-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-ink-700 bg-ink-950/95 px-4 py-3 backdrop-blur lg:hidden print:hidden"
    >
      <div className="mx-auto flex max-w-6xl items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-white">{title}</p>
          <p className="text-sm text-slate-300">{price}</p>
        </div>
        <a
          href="#buy"
          onClick={(e) => {
            e.preventDefault();
            onGo();
          }}
          className="shrink-0 rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
        >
          {label}
          <span className="sr-only"> (to the buy box)</span>
        </a>
      </div>
    </div>
  );
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const product = useOwnedDetails(loaderData.product);
  // Its vendor sees no buy box (checkout refuses them), like a buyer who owns it.
  const buyable = !product.purchased && !product.soldByYou;
  const [params] = useSearchParams();
  // A plan can be preselected by link (`?priceId=`, e.g. from the plan pages).
  const [priceId, setPriceId] = useState(params.get('priceId') ?? product.priceId);
  const chosen = product.prices.find((p) => p.priceId === priceId) ?? product.prices[0]!;
  const missing = useMissingPrerequisites(product);
  // Products for TradingView may deliver invite-only scripts: the buy box then asks for the name.
  const tradingview = useTradingViewStep(
    product.id,
    buyable && product.platforms.includes('tradingview'),
  );
  const cancelled = params.get('checkout') === 'cancelled';
  const [buyEnd, buyOutOfView] = useOutOfView();
  const label = chosen.trialDays
    ? `Start ${chosen.trialDays}-day free trial`
    : chosen.scheme === 'recurring'
      ? 'Subscribe'
      : 'Buy now';
  const trial = trialLabel(chosen);
  const member = useMemberPrice(chosen.amount, product.vendor.vendorUrl);
  const memberPrice = member
    ? formatPrice({ ...chosen, amount: chosen.amount - member.discount })
    : null;
  const rating = useProductRating(product.id, product.rating);
  // The buyer's own review and whether they may write one: the buy box and the reviews read them.
  useFetchReviewDetails(product.id);

  return (
    <div className="mx-auto max-w-6xl pb-24 lg:pb-0">
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-400 sm:mb-4">
        <Link to="/" className="hover:text-white">
          Home
        </Link>{' '}
        /{' '}
        <Link to={`/search?category=${product.category}`} className="hover:text-white">
          {categoryLabels[product.category]}
        </Link>
      </nav>
      {/* The buy box comes first (phones read it first); wide screens put it in the right column. */}
      <div className="grid gap-6 lg:grid-cols-[1fr_380px] lg:grid-rows-[auto_1fr] lg:gap-x-8 lg:gap-y-5">
        <div
          id="buy"
          tabIndex={-1}
          className="rounded-2xl border border-ink-700 bg-ink-900 p-4 outline-none sm:p-6 lg:col-start-2 lg:row-start-1"
        >
          <h1 className="text-2xl font-extrabold text-white">{product.title}</h1>
          <p className="mt-1 text-lg font-bold text-white">
            {formatPrice(chosen)}
            {trial && <span className="ml-2 text-sm font-medium text-brand-300">{trial}</span>}
          </p>
          {member && memberPrice && (
            <p className="mt-1 text-sm font-semibold text-brand-300">
              Your {member.name} member price: {memberPrice}
            </p>
          )}
          <p className="mt-2 text-slate-300">{product.summary}</p>
          <div className="mt-3 flex items-center gap-3">
            <a href="#reviews" className="rounded hover:underline">
              <Stars {...rating} />
            </a>
            {product.salesCount > 0 && (
              <span className="text-xs text-slate-400">{product.salesCount} sold</span>
            )}
          </div>
          {product.platforms.length > 0 && (
            <p className="mt-2 text-xs text-slate-400">
              Works with {product.platforms.map((p) => platformLabels[p]).join(', ')}
            </p>
          )}
          <WhatYouGet delivers={product.delivers} />
          {cancelled && buyable && (
            <div className="mt-5">
              <CheckoutCancelled />
            </div>
          )}
          {product.soldByYou ? (
            <div className="mt-5">
              <YourItem what="product" editPath={`/vendor/products/${product.id}`} />
            </div>
          ) : product.purchased ? (
            <div className="mt-5">
              <Owned what="It is in your library." />
              <div className="mt-2 px-1 text-sm">
                <ReviewPrompt productId={product.id} onOpen={ProductReviews.load} />
              </div>
            </div>
          ) : (
            <div className="mt-5">
              <CheckoutPanel
                target={{
                  kind: 'product',
                  vendorUrl: product.vendor.vendorUrl,
                  priceId: chosen.priceId,
                  scheme: chosen.scheme === 'one_time' ? 'one_time' : (chosen.interval ?? 'month'),
                }}
                price={chosen}
                recurring={chosen.scheme === 'recurring'}
                label={label}
                trialNote={
                  chosen.trialDays
                    ? `Then ${memberPrice ?? formatPrice(chosen)}. Cancel before the trial ends and you pay nothing.`
                    : null
                }
                blocked={missing.length > 0}
                beforeBuy={tradingview.beforeBuy}
              >
                <PriceChoice
                  legend="Choose a plan"
                  prices={product.prices}
                  chosen={chosen}
                  onChoose={setPriceId}
                />
                {tradingview.field}
                {missing.length > 0 && (
                  <p className="rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100">
                    Requires{' '}
                    {missing.map((m, i) => (
                      <span key={m.id}>
                        {i > 0 && ', '}
                        <Link to={productPath(m)} className="font-semibold underline">
                          {m.title}
                        </Link>
                      </span>
                    ))}{' '}
                    first.
                  </p>
                )}
              </CheckoutPanel>
              {/* Marks the end of the buy box: while it is off screen, the buy bar shows. */}
              <div ref={buyEnd} aria-hidden className="h-px" />
            </div>
          )}
        </div>
        <div className="flex flex-col gap-6 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <Gallery product={product} />
          <section aria-labelledby="about">
            <h2 id="about" className="sr-only">
              About this product
            </h2>
            {product.descriptionHtml ? (
              <MarkdownHtml html={product.descriptionHtml} testId="product-description" />
            ) : (
              <p className="text-slate-300">{product.summary}</p>
            )}
          </section>
          <ProductReviews
            key={product.id}
            productId={product.id}
            vendorUrl={product.vendor.vendorUrl}
            vendorName={product.vendor.displayName}
            initial={loaderData.reviews}
            initialSort={loaderData.reviewSort}
          />
        </div>
        <aside className="flex flex-col gap-5 lg:col-start-2 lg:row-start-2 lg:self-start">
          <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
            <p className="text-xs tracking-wide text-slate-400 uppercase">Sold by</p>
            <Link
              to={vendorPath(product.vendor)}
              className="mt-1 block text-lg font-semibold text-white hover:text-brand-300"
            >
              {product.vendor.displayName}{' '}
              {product.vendor.verified && <span className="text-brand-400">✓</span>}
            </Link>
            <Link
              to={vendorPath(product.vendor)}
              className="flex min-h-6 items-center text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Visit the storefront
            </Link>
            <Link
              to={`/contact?vendor=${encodeURIComponent(product.vendor.vendorUrl)}`}
              className="mt-1 flex min-h-6 items-center text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Contact the vendor
            </Link>
          </div>
          {product.bundles.length > 0 && (
            <div className="rounded-2xl border border-amber-500/30 bg-ink-900 p-5">
              <p className="text-sm font-semibold text-white">Also in a bundle</p>
              <ul className="mt-2 flex flex-col gap-1 text-sm">
                {product.bundles.map((b) => (
                  <li key={b.id}>
                    <Link
                      to={bundlePath(b)}
                      className="text-brand-400 underline underline-offset-2 hover:decoration-2"
                    >
                      {b.title}
                    </Link>{' '}
                    <span className="text-slate-400">
                      · {formatMoney(b.price.amount, b.price.currency)}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </aside>
      </div>
      {buyable && (
        <BuyBar
          title={product.title}
          price={formatPrice(chosen)}
          label={label}
          visible={buyOutOfView}
          onGo={() => {
            // The buy button (just above the marker) to the bottom of the screen; focus to the box.
            buyEnd.current?.scrollIntoView({ block: 'end' });
            document.getElementById('buy')?.focus({ preventScroll: true });
          }}
        />
      )}
    </div>
  );
}

/** Main column width: the whole screen on phones, about 740 px beside the buy box on desktops. */
const GALLERY_SIZES = '(min-width: 1152px) 740px, (min-width: 1024px) 64vw, 100vw';

/**
 * The cover, loaded first and at high priority (the page's largest paint), and the other pictures as
 * thumbnails that swap into the main frame.
 */
function Gallery({ product }: { product: Route.ComponentProps['loaderData']['product'] }) {
  const [shown, setShown] = useState(0);
  const pictures = product.gallery;
  const main = pictures[shown] ?? null;
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-hidden rounded-2xl border border-ink-700">
        <Cover
          kind={product.kind}
          title={product.title}
          image={main}
          imageUrl={main ? null : (product.images[0] ?? null)}
          sizes={GALLERY_SIZES}
          priority={shown === 0}
          alt={`${product.title}: picture ${shown + 1} of ${Math.max(1, pictures.length)}`}
        />
      </div>
      {pictures.length > 1 && (
        <ul className="grid grid-cols-4 gap-2" aria-label="Pictures">
          {pictures.slice(0, 8).map((image, i) => (
            <li key={image.base}>
              <button
                type="button"
                onClick={() => setShown(i)}
                aria-pressed={shown === i}
                aria-label={`Show picture ${i + 1} of ${pictures.length}`}
                className={`block w-full overflow-hidden rounded-lg border-2 ${shown === i ? 'border-brand-400' : 'border-transparent hover:border-ink-600'}`}
              >
                <Picture
                  image={image}
                  alt=""
                  sizes="(min-width: 1024px) 180px, 25vw"
                  className="aspect-video h-auto w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
