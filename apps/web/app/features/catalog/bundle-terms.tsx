import { bundleItemTerms } from '@tradeshelf/contract/client';
import type { BundleDetails } from '@tradeshelf/contract';
import { formatMoney, formatPrice } from '../../lib/format.ts';

/**
 * What the bundle gives of each product (its term: paid once, nothing renews) and what the product
 * costs on its own, the plan the value counts; then the sum against the bundle's price, a saving
 * only when there is one (issue 27).
 */
export function BundleTerms({ bundle }: { bundle: BundleDetails }) {
  const counted = new Map(bundle.items.map((i) => [i.productId, i.counted]));
  const currency = bundle.price.currency;
  const difference = bundle.valueAmount - bundle.price.amount;
  const renews = bundle.items.some((i) => i.counted?.scheme === 'recurring');
  return (
    <section aria-labelledby="terms" className="flex flex-col gap-3" data-testid="bundle-terms">
      <h2 id="terms" className="text-xl font-bold text-white">
        What you get, and for how long
      </h2>
      <ul className="flex flex-col divide-y divide-ink-800 rounded-xl border border-ink-700 bg-ink-900">
        {bundle.products.map((p) => {
          const price = counted.get(p.id) ?? null;
          return (
            <li
              key={p.id}
              data-testid="bundle-term"
              className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
            >
              <div className="min-w-0">
                <p className="font-semibold break-words text-white">{p.title}</p>
                <p className="text-sm text-slate-300">{bundleItemTerms[p.kind]}</p>
              </div>
              <p className="shrink-0 text-sm text-slate-400">
                {price ? `On its own: ${formatPrice(price)}` : 'Not sold on its own'}
              </p>
            </li>
          );
        })}
      </ul>
      {bundle.valueAmount > 0 && (
        <p className="text-sm text-slate-300" data-testid="bundle-value">
          Bought separately: {formatMoney(bundle.valueAmount, currency)}
          {renews ? ' (the first payment of each subscription)' : ''}. This bundle:{' '}
          {formatMoney(bundle.price.amount, currency)}, paid once.{' '}
          {difference > 0
            ? `You save ${formatMoney(difference, currency)}.`
            : difference < 0
              ? `That is ${formatMoney(-difference, currency)} more than buying them separately.`
              : 'The same as buying them separately.'}
        </p>
      )}
    </section>
  );
}
