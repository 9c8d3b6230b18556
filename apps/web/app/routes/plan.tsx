import { Link } from 'react-router';
import { planFeatures, planOfPath, PLATFORM_VENDOR_URL } from '@tradeshelf/contract/client';
import { productPath } from '../features/catalog/components.tsx';
import { formatPrice, trialLabel } from '../lib/format.ts';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/plan';

/** The platform's own plans, sold as products of the Tradeshelf vendor account. */
export async function loader({ context, request }: Route.LoaderArgs) {
  // The route table maps only /premium and /pro-plus here.
  const plan = planOfPath(new URL(request.url).pathname)!;
  const list = await loadFrom(context, request, routes.sellerProductList, {
    query: { vendorUrl: PLATFORM_VENDOR_URL, isActive: 'true' },
  });
  const card = list.products.find((p) => p.slug === plan.slug);
  const { product } = card
    ? await loadFrom(context, request, routes.productDetails, { query: { id: card.id } })
    : { product: null };
  // Exactly what the purchase grants, from the contract the API enforces (ADR 027).
  return { plan: { name: plan.name, features: planFeatures(plan) }, product };
}

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data, matches, location }) =>
  seo({
    title: `Tradeshelf ${data?.plan.name ?? ''}`,
    description: data?.product?.summary ?? 'Tradeshelf plans for active traders.',
    path: location.pathname,
    origin: originOf(matches),
  });

export default function Plan({ loaderData }: Route.ComponentProps) {
  const { plan, product } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 text-center">
      <h1 className="text-4xl font-extrabold text-white">Tradeshelf {plan.name}</h1>
      {product && <p className="text-lg text-slate-300">{product.summary}</p>}
      <ul className="mx-auto flex max-w-md flex-col gap-2 text-left">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2 text-slate-200">
            <span className="text-brand-400">✓</span> {f}
          </li>
        ))}
      </ul>
      {product ? (
        <div className="mx-auto flex w-full max-w-md flex-col gap-3">
          {product.prices.map((p) => (
            <a
              key={p.priceId}
              href={`${productPath(product)}?priceId=${encodeURIComponent(p.priceId)}`}
              className="flex items-center justify-between rounded-xl border border-ink-600 bg-ink-900 px-5 py-4 hover:border-brand-500"
            >
              <span className="font-semibold text-white">{formatPrice(p)}</span>
              <span className="text-sm text-brand-300">{trialLabel(p) ?? 'Choose'}</span>
            </a>
          ))}
          <Link to={productPath(product)} className="text-sm text-slate-400 hover:text-white">
            Plan details
          </Link>
        </div>
      ) : (
        <p className="text-slate-400">This plan is not on sale right now.</p>
      )}
      <p className="text-sm text-slate-400">
        Compare:{' '}
        <Link
          to="/premium"
          className="text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Premium
        </Link>{' '}
        ·{' '}
        <Link
          to="/pro-plus"
          className="text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Pro Plus
        </Link>
      </p>
    </div>
  );
}
