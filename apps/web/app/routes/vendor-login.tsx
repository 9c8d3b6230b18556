import { Link } from 'react-router';
import { planBillingLabels, priceIntervals } from '@tradeshelf/contract/client';
import { VENDOR_HOME_PATH } from '../features/workspace/nav.ts';
import { useAppSelector } from '../lib/hooks.ts';
import { formatFee, referralWindowDays } from '../legal/policy.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/vendor-login';

/** The fee is the one checkout charges (PLATFORM_FEE_BPS / PLATFORM_FEE_FIXED), read from the API. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const terms = await loadFrom(context, request, routes.platformTerms, {});
  return { fee: formatFee(terms.platformFee), referralWindow: terms.referralWindow };
}

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ data, matches }) =>
  seo({
    title: 'Make money selling trading tools',
    description: `Sell indicators, scanners, alerts, paid communities, courses and apps on Tradeshelf: ${data?.fee ?? 'a small fee'} per payment, no monthly fee, no listing fee.`,
    path: '/vendor/login',
    origin: originOf(matches),
  });

/** The billing intervals plans take, in words ("weekly, monthly, quarterly or yearly"): the editor's list. */
const intervals = (() => {
  const words = priceIntervals.map((i) => planBillingLabels[i].toLowerCase());
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0];
})();

/** What a listing can be: the catalogue's product kinds, as checkout sells them. */
const sellables = [
  [
    'Indicators & scanners',
    'For TradingView, MetaTrader, NinjaTrader, cTrader and more. Sell them once or by subscription; buyers can filter search by platform.',
  ],
  [
    'Alerts',
    `Subscriptions billed ${intervals}, with an optional free trial: buyers who cancel before it ends pay nothing.`,
  ],
  [
    'Paid communities',
    "Memberships sold as subscriptions. A member's access follows the subscription: it ends when the subscription ends or is refunded.",
  ],
  ['Courses', 'Sell a course on its own, by subscription or inside a bundle.'],
  ['Apps', 'Sell software once or by subscription, with the same checkout and receipts.'],
  [
    'Bundles',
    'Put several of your products at one price; the bundle page shows buyers what they save.',
  ],
] as const;

/**
 * Signed out: sign up, or log in on the way to the workspace. Signed in: straight to the workspace,
 * which offers "Become a vendor" to anyone who is not one yet (never a login form to a signed-in person).
 */
function Start() {
  const signedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const isVendor = useAppSelector((s) => s.user.profile.data?.roles.includes('vendor') ?? false);
  const primary = 'rounded-lg bg-brand-500 px-5 py-3 font-semibold text-ink-950 hover:bg-brand-400';
  if (signedIn)
    return (
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={VENDOR_HOME_PATH} className={primary}>
          {isVendor ? 'Open your workspace' : 'Become a vendor'}
        </Link>
      </div>
    );
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      <Link to="/signup" className={primary}>
        Create an account
      </Link>
      <Link
        to={`/login?next=${VENDOR_HOME_PATH}`}
        className="rounded-lg border border-ink-600 px-5 py-3 font-semibold hover:bg-ink-800"
      >
        Log in and become a vendor
      </Link>
    </div>
  );
}

export default function VendorLanding({ loaderData }: Route.ComponentProps) {
  const { fee, referralWindow } = loaderData;
  const open = referralWindow.open;
  const windowDays = referralWindowDays(referralWindow);
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-10 sm:gap-12">
      <section className="text-center sm:pt-6">
        <h1 className="text-3xl font-extrabold text-white sm:text-5xl">
          Make money with Tradeshelf
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-slate-300 sm:text-lg">
          Sell your indicators, scanners, alerts, communities, courses and apps to traders. You keep
          each payment, less the {fee} platform fee and, on a referred sale, the affiliate&apos;s
          commission.
        </p>
        <Start />
      </section>
      <section aria-labelledby="money" className="grid gap-4 sm:grid-cols-3">
        <h2 id="money" className="sr-only">
          Fees and payouts
        </h2>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400" data-testid="platform-fee">
            {fee}
          </p>
          <p className="mt-1 font-semibold text-white">Platform fee per payment</p>
          <p className="mt-2 text-sm text-slate-400">
            On each payment, renewals included. No monthly fee, no listing fee. Refund a payment and
            the fee on it is reversed in the same proportion.
          </p>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400">Stripe</p>
          <p className="mt-1 font-semibold text-white">Paid as buyers pay</p>
          <p className="mt-2 text-sm text-slate-400">
            With your Stripe account connected, your share of each sale goes to it when the buyer
            pays; Stripe pays out to your bank on your account&apos;s schedule.
          </p>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400" data-testid="referral-window">
            {windowDays}
          </p>
          <p className="mt-1 font-semibold text-white">Affiliate referrals</p>
          <p className="mt-2 text-sm text-slate-400" data-testid="referral-window-text">
            You choose how long buyers who arrive through an affiliate&apos;s link are remembered,
            from 1 to {referralWindow.maxDays} days
            {open ? `; programmes open now remember them for ${windowDays}` : ''}. The commission
            comes out of the payments they make and is reversed in proportion if one is refunded.
          </p>
        </div>
      </section>
      <section aria-labelledby="what">
        <h2 id="what" className="text-2xl font-bold text-white">
          What you can sell
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sellables.map(([title, text]) => (
            <li key={title} className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
              <h3 className="font-semibold text-white">{title}</h3>
              <p className="mt-2 text-sm text-slate-400">{text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="how" className="rounded-2xl border border-ink-700 bg-ink-900 p-6">
        <h2 id="how" className="text-xl font-bold text-white">
          Also included
        </h2>
        <ul className="mt-3 grid list-disc gap-2 pl-5 text-sm text-slate-300 sm:grid-cols-2">
          <li>Your own storefront page with your products and bundles.</li>
          <li>
            Coupons: a percentage or an amount off, on the first payment or every payment, with an
            expiry date and a redemption limit.
          </li>
          <li>Products that require another product first.</li>
          <li>Receipts e-mailed to buyers, and a portal where they manage subscriptions.</li>
          <li>Duplicate payments refunded to the buyer automatically.</li>
          <li>Buyer messages: buyers can name your store in our contact form to reach you.</li>
        </ul>
      </section>
      <section className="text-center text-slate-300">
        <p>
          You set up your storefront, listings, delivery and coupons yourself in the vendor
          workspace; a listing is in search the moment you publish it. Questions first?{' '}
          <Link
            to="/contact?subject=Selling%20on%20Tradeshelf"
            className="font-semibold text-brand-300 underline underline-offset-2"
          >
            Tell us what you sell
          </Link>{' '}
          and read the{' '}
          <Link to="/terms#vendors" className="text-brand-300 underline underline-offset-2">
            vendor terms
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
