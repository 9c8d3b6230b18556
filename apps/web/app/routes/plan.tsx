import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { planFeatures, planOfPath, PLATFORM_VENDOR_URL } from '@tradeshelf/contract/client';
import type { ProductDetails } from '@tradeshelf/contract';
import {
  CheckoutCancelled,
  CheckoutPanel,
  Owned,
  PriceChoice,
} from '../features/catalog/checkout.tsx';
import { useOwnedDetails } from '../features/catalog/hooks.ts';
import { formatPrice } from '../lib/format.ts';
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

/**
 * The plan's own checkout: billing choice and the buy button, no coupon box (plans do not combine
 * with coupons), no vendor contact and no platform list: a plan is not a vendor's product.
 */
function PlanCheckout({ product }: { product: ProductDetails }) {
  const details = useOwnedDetails(product);
  const [params] = useSearchParams();
  const [priceId, setPriceId] = useState(params.get('priceId') ?? product.priceId);
  const chosen = details.prices.find((p) => p.priceId === priceId) ?? details.prices[0]!;
  if (details.purchased)
    return (
      <div className="mx-auto flex w-full max-w-md flex-col gap-3 text-left">
        <Owned what="You are a member." />
        <Link to="/account" className="text-sm text-brand-400 underline underline-offset-2">
          Your plan, renewal date and billing are on your account page
        </Link>
      </div>
    );
  const trial = chosen.trialDays;
  return (
    <div
      className="mx-auto flex w-full max-w-md flex-col gap-3 text-left"
      data-testid="plan-checkout"
    >
      {params.get('checkout') === 'cancelled' && <CheckoutCancelled />}
      <CheckoutPanel
        target={{
          kind: 'product',
          vendorUrl: PLATFORM_VENDOR_URL,
          priceId: chosen.priceId,
          scheme: chosen.scheme === 'one_time' ? 'one_time' : (chosen.interval ?? 'month'),
        }}
        price={chosen}
        recurring={chosen.scheme === 'recurring'}
        label={trial ? `Start ${trial}-day free trial` : 'Join'}
        trialNote={
          trial
            ? `Then ${formatPrice(chosen)}. Cancel before the trial ends and you pay nothing.`
            : null
        }
        coupons={false}
      >
        <PriceChoice
          legend="Billing"
          prices={details.prices}
          chosen={chosen}
          onChoose={setPriceId}
        />
      </CheckoutPanel>
      <p className="text-center text-xs text-slate-400">
        Billed by Tradeshelf. Plan prices are not combined with coupons; cancel any time from your
        account page.
      </p>
    </div>
  );
}

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
        <PlanCheckout product={product} />
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
