import { Link } from 'react-router';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/vendor-login';

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Make money selling trading tools',
    description:
      'Sell indicators, scanners, alerts, paid Discord communities, courses and licensed apps on Tradeshelf. Weekly payouts, affiliates, no monthly fee.',
    path: '/vendor/login',
    origin: originOf(matches),
  });

const sellables = [
  [
    'Indicators & scanners',
    'TradingView invite-only scripts, MetaTrader and NinjaTrader add-ons, with access granted automatically.',
  ],
  [
    'Paid Discord communities',
    'Members get their role the moment they pay and lose it when they cancel. No bots to babysit.',
  ],
  ['Courses', 'Video lessons with signed, expiring links and downloadable attachments.'],
  [
    'Licensed apps',
    'Licence keys issued per purchase, with activation limits and a validation API.',
  ],
  ['Alerts', 'Sell alert subscriptions by the week, month, quarter or year, with free trials.'],
  ['Bundles', 'Package your products at one price to lift order value.'],
] as const;

export default function VendorLanding() {
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-12">
      <section className="pt-6 text-center">
        <h1 className="text-4xl font-extrabold text-white sm:text-5xl">
          Make money with Tradeshelf
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
          Turn your edge into income. List your trading tools, communities and courses where traders
          already shop, and get paid every week.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link
            to="/signup"
            className="rounded-lg bg-brand-500 px-5 py-3 font-semibold text-ink-950 hover:bg-brand-400"
          >
            Create an account
          </Link>
          <Link
            to="/login?next=/account"
            className="rounded-lg border border-ink-600 px-5 py-3 font-semibold hover:bg-ink-800"
          >
            Log in and become a vendor
          </Link>
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
      <section aria-labelledby="money" className="grid gap-4 sm:grid-cols-3">
        <h2 id="money" className="sr-only">
          Fees and payouts
        </h2>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400">8%</p>
          <p className="mt-1 font-semibold text-white">Platform fee</p>
          <p className="mt-2 text-sm text-slate-400">
            Per sale, plus the payment processor&apos;s fee. No monthly fee, no listing fee.
          </p>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400">Weekly</p>
          <p className="mt-1 font-semibold text-white">Payouts</p>
          <p className="mt-2 text-sm text-slate-400">
            Balances come from a ledger you can audit; payouts go to your connected Stripe account.
          </p>
        </div>
        <div className="rounded-2xl border border-ink-700 bg-ink-900 p-5">
          <p className="text-3xl font-extrabold text-brand-400">You set it</p>
          <p className="mt-1 font-semibold text-white">Affiliate commission</p>
          <p className="mt-2 text-sm text-slate-400">
            Invite affiliates with referral links; commissions are paid only on real, unrefunded
            sales.
          </p>
        </div>
      </section>
    </div>
  );
}
