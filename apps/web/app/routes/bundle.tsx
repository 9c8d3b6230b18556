import { Link, redirect, useSearchParams } from 'react-router';
import {
  CheckoutCancelled,
  CheckoutPanel,
  Owned,
  YourItem,
} from '../features/catalog/checkout.tsx';
import { bundlePath, Cover, ProductGrid, vendorPath } from '../features/catalog/components.tsx';
import { useOwnedBundle } from '../features/catalog/hooks.ts';
import { BundleTerms } from '../features/catalog/bundle-terms.tsx';
import { formatMoney } from '../lib/format.ts';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { MarkdownHtml } from '../lib/markdown.tsx';
import { shareImage } from '../lib/images.tsx';
import { breadcrumbs, originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/bundle';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { bundle } = await loadFrom(context, request, routes.bundleDetails, {
    query: { id: params.id },
  });
  if (params.slug !== bundle.slug) throw redirect(bundlePath(bundle), 301);
  return { bundle };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const { bundle } = data;
  const origin = originOf(matches);
  const path = bundlePath(bundle);
  return seo({
    title: bundle.title,
    description: bundle.summary,
    path,
    origin,
    type: 'product',
    image: shareImage(bundle.image, bundle.imageUrl, `${bundle.title}: bundle cover`),
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: bundle.title,
        ...(bundle.imageUrl
          ? { image: /^https?:/.test(bundle.imageUrl) ? bundle.imageUrl : origin + bundle.imageUrl }
          : {}),
        description: bundle.summary,
        sku: bundle.id,
        brand: { '@type': 'Brand', name: bundle.vendor.displayName },
        url: origin + path,
        offers: {
          '@type': 'Offer',
          price: (bundle.price.amount / 100).toFixed(2),
          priceCurrency: bundle.price.currency.toUpperCase(),
          availability: 'https://schema.org/InStock',
          url: origin + path,
        },
      },
      breadcrumbs(origin, [
        ['Home', '/'],
        ['Bundles', '/search?category=bundles'],
        [bundle.title, path],
      ]),
    ],
  });
};

export default function Bundle({ loaderData }: Route.ComponentProps) {
  const bundle = useOwnedBundle(loaderData.bundle);
  const [params] = useSearchParams();
  const cancelled = params.get('checkout') === 'cancelled';
  const saving = bundle.valueAmount - bundle.price.amount;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8">
      <section className="grid gap-6 rounded-2xl border border-amber-500/30 bg-ink-900 p-6 lg:grid-cols-[1fr_320px]">
        <div>
          {(bundle.image || bundle.imageUrl) && (
            <div className="mb-4 overflow-hidden rounded-xl border border-ink-700">
              <Cover
                kind="bundle"
                title={bundle.title}
                image={bundle.image}
                imageUrl={bundle.imageUrl}
                sizes="(min-width: 1152px) 760px, (min-width: 1024px) 64vw, 100vw"
                priority
                alt={`${bundle.title}: the bundle's products`}
              />
            </div>
          )}
          <p className="text-xs font-semibold tracking-wide text-amber-200 uppercase">
            Bundle · {bundle.products.length} products
          </p>
          <h1 className="mt-1 text-3xl font-extrabold text-white">{bundle.title}</h1>
          <p className="mt-2 text-slate-300">
            by{' '}
            <Link
              to={vendorPath(bundle.vendor)}
              className="text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              {bundle.vendor.displayName}
            </Link>
          </p>
          <div className="mt-4">
            {bundle.descriptionHtml ? (
              <MarkdownHtml html={bundle.descriptionHtml} testId="bundle-description" />
            ) : (
              <p className="text-slate-300">{bundle.summary}</p>
            )}
          </div>
        </div>
        <div className="flex flex-col gap-3 rounded-xl bg-ink-800 p-5">
          <p className="text-3xl font-extrabold text-white">
            {formatMoney(bundle.price.amount, bundle.price.currency)}
          </p>
          {saving > 0 && (
            <p className="text-sm text-slate-300">
              <span className="line-through">
                {formatMoney(bundle.valueAmount, bundle.price.currency)}
              </span>{' '}
              separately · you save {formatMoney(saving, bundle.price.currency)}
            </p>
          )}
          {cancelled && !bundle.purchased && !bundle.soldByYou && <CheckoutCancelled />}
          {bundle.soldByYou ? (
            <YourItem what="bundle" editPath={`/vendor/bundles/${bundle.id}`} />
          ) : bundle.purchased ? (
            <Owned what="Every product is in your library." />
          ) : (
            <CheckoutPanel
              target={{ kind: 'bundle', bundleId: bundle.id }}
              vendorUrl={bundle.vendor.vendorUrl}
              price={bundle.price}
              label="Buy the bundle"
            />
          )}
        </div>
      </section>
      <BundleTerms bundle={bundle} />
      <section aria-labelledby="included">
        <h2 id="included" className="text-xl font-bold text-white">
          What is included
        </h2>
        <div className="mt-4">
          <ProductGrid products={bundle.products} />
        </div>
      </section>
    </div>
  );
}
