import { endpoints, vendorEndpoints } from '@tradeshelf/contract/client';
import type { PayoutAccountStatus, Storefront, VendorPayouts } from '@tradeshelf/contract';
import { countLabel } from '../../lib/format.ts';
import { requestThunk } from '../../lib/thunk.ts';

export type StepState = 'done' | 'in_progress' | 'todo' | 'blocked';

export interface OnboardingStep {
  id: 'storefront' | 'payouts' | 'product' | 'publish';
  title: string;
  /** What the step's state means, in words. */
  detail: string;
  state: StepState;
  to: string;
  action: string;
}

export interface Overview {
  storefront: Storefront | null;
  payouts: VendorPayouts | null;
  /** Why payouts could not be read (the provider did not answer), else null. */
  payoutsError: string | null;
  /**
   * Listings, products and bundles (null without a storefront): `published` are the ones buyers see
   * (the storefront counts the same lists); `drafts` are the rest, drafts and unpublished ones.
   */
  drafts: number | null;
  published: number | null;
  /** How many of the published listings are bundles. */
  publishedBundles?: number;
}

/**
 * What the overview needs, read together: the storefront first (nothing else exists without it),
 * then payouts and the vendor's own listings (drafts are shown to their owner only).
 */
export const fetchOverview = requestThunk<void, Overview>(
  'vendor/overview',
  async (_arg, { api }) => {
    const { storefront } = await api.call(vendorEndpoints.vendorStorefront, {});
    if (!storefront)
      return { storefront, payouts: null, payoutsError: null, drafts: null, published: null };
    const vendorUrl = storefront.vendorUrl;
    let payoutsError: string | null = null;
    const [payouts, drafts, published] = await Promise.all([
      // A provider that does not answer leaves the rest of the checklist readable.
      api.call(vendorEndpoints.vendorPayouts, {}).then(
        (r) => r.payouts,
        (err: { error?: string }) => {
          payoutsError = err.error ?? 'We could not read your payout account.';
          return null;
        },
      ),
      api.call(endpoints.sellerProductList, { query: { vendorUrl, isActive: 'false' } }),
      api.call(endpoints.sellerProductList, { query: { vendorUrl, isActive: 'true' } }),
    ]);
    const count = (l: { products: unknown[]; bundles: unknown[] }) =>
      l.products.length + l.bundles.length;
    return {
      storefront,
      payouts,
      payoutsError,
      drafts: count(drafts),
      published: count(published),
      publishedBundles: published.bundles.length,
    };
  },
);

const payoutDetail: Record<PayoutAccountStatus, string> = {
  not_started: 'Connect a payout account so sales reach you.',
  incomplete: 'The payment provider still needs some details.',
  pending_verification: 'The payment provider is verifying your details.',
  active: 'Your payout account is active.',
  restricted: 'The payment provider restricted your account.',
};

/** "9 listings published (8 products and 1 bundle): …", and what is not published. */
function publishedLine(published: number, bundles: number, notPublished: number): string {
  const parts = [countLabel(published - bundles, 'product')];
  if (bundles) parts.push(countLabel(bundles, 'bundle'));
  const line = `${countLabel(published, 'listing')} published (${parts.join(' and ')}): on your storefront and in search.`;
  if (!notPublished) return line;
  return `${line} ${countLabel(notPublished, 'listing')} not published (drafts and unpublished): only you see ${notPublished === 1 ? 'it' : 'them'}.`;
}

/** The checklist, in order: storefront → payouts → first product → publish. */
export function onboardingSteps(o: Overview): OnboardingStep[] {
  const hasStorefront = Boolean(o.storefront);
  const status = o.payouts?.status ?? 'not_started';
  const listings = (o.drafts ?? 0) + (o.published ?? 0);
  return [
    {
      id: 'storefront',
      title: 'Set up your storefront',
      detail: hasStorefront
        ? `Live at /v/${o.storefront!.vendorUrl}.`
        : 'Choose your address and name; buyers find you there.',
      state: hasStorefront ? 'done' : 'todo',
      to: '/vendor/storefront',
      action: hasStorefront ? 'Edit storefront' : 'Set up storefront',
    },
    {
      id: 'payouts',
      title: 'Set up payouts',
      detail: !hasStorefront
        ? 'Comes after your storefront.'
        : (o.payoutsError ?? payoutDetail[status]),
      state: !hasStorefront
        ? 'blocked'
        : o.payoutsError
          ? 'todo'
          : status === 'active'
            ? 'done'
            : status === 'not_started'
              ? 'todo'
              : 'in_progress',
      to: '/vendor/payouts',
      action: status === 'active' ? 'View payouts' : 'Set up payouts',
    },
    {
      id: 'product',
      title: 'Create your first product',
      detail: !hasStorefront
        ? 'Comes after your storefront.'
        : listings > 0
          ? `${countLabel(listings, 'listing')}: ${o.published ?? 0} published, ${o.drafts ?? 0} not published.`
          : 'An indicator, a course, a Discord community…',
      state: !hasStorefront ? 'blocked' : listings > 0 ? 'done' : 'todo',
      to: '/vendor/products/new',
      action: 'Create a product',
    },
    {
      id: 'publish',
      title: 'Publish it',
      detail:
        (o.published ?? 0) > 0
          ? publishedLine(o.published!, o.publishedBundles ?? 0, o.drafts ?? 0)
          : listings > 0
            ? 'Your drafts are not visible to buyers until you publish them.'
            : 'Comes after your first product.',
      state: (o.published ?? 0) > 0 ? 'done' : listings > 0 ? 'todo' : 'blocked',
      to: '/vendor/products',
      action: 'Go to products',
    },
  ];
}
