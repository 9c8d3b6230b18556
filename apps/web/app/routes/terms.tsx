import { Link } from 'react-router';
import { formatFee, PolicyPage, referralWindowDays, Section } from '../legal/policy.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/terms';

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadFrom(context, request, routes.platformTerms, {});
}

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Terms of service and sale',
    description:
      'How buying and selling trading tools, communities, courses and apps on Tradeshelf works: accounts, payments, subscriptions, trials, vendor responsibilities and fees.',
    path: '/terms',
    origin: originOf(matches),
  });

export default function Terms({ loaderData }: Route.ComponentProps) {
  const fee = formatFee(loaderData.platformFee);
  return (
    <PolicyPage
      title="Terms of service and sale"
      intro="Tradeshelf is a marketplace: independent vendors sell trading indicators, scanners, alerts, paid communities, courses, bundles and licensed apps, and buyers buy them from those vendors through our checkout. These terms apply to everyone who uses the site."
    >
      <Section id="accounts" title="Your account">
        <ul>
          <li>
            An account belongs to one person. Keep your password to yourself; changing it signs out
            every other device.
          </li>
          <li>
            Confirm your e-mail address with the code we send you. For the first days you can use
            the site without it; after that, signing in needs the code.
          </li>
          <li>
            Your username (4 to 15 letters, digits or single underscores) is how other members see
            you, so it must be unique and must not impersonate anyone.
          </li>
          <li>
            We may suspend an account used for fraud, for chargebacks made in bad faith, or to break
            these terms.
          </li>
        </ul>
      </Section>

      <Section id="buying" title="Buying">
        <ul>
          <li>
            <strong>Who sells.</strong> The vendor named on the product page is the seller and is
            responsible for the product. We run the checkout, take the payment on the vendor&apos;s
            behalf and keep the records.
          </li>
          <li>
            <strong>Prices and payment.</strong> Prices are shown with their currency, either once
            or per week, month, quarter or year. Payments are taken by our payment provider, Stripe;
            we never receive or store your card number.
          </li>
          <li>
            <strong>Access.</strong> Your access starts when the payment is confirmed and is listed
            under Orders. Some products require another product first; the product page says so.
          </li>
          <li>
            <strong>Subscriptions</strong> renew at the end of each period until you cancel. Cancel
            any time with &ldquo;Manage subscription&rdquo; on the order: access continues to the
            end of the period you paid for. If a renewal payment fails, the subscription is past due
            until a payment succeeds or it ends.
          </li>
          <li>
            <strong>Free trials</strong> cost nothing until they end. Cancel before the trial ends
            and you pay nothing; otherwise the first payment is taken when it ends.
          </li>
          <li>
            <strong>Coupons</strong> are the vendor&apos;s. A coupon may be for one product or all
            of a vendor&apos;s products, may apply to the first payment only or to every payment,
            and may expire or run out.
          </li>
          <li>
            <strong>Referral links.</strong> If you arrive through an affiliate&apos;s link, we
            remember it for as long as that vendor&apos;s affiliate programme says (
            <span data-testid="referral-window">
              {referralWindowDays(loaderData.referralWindow)}
            </span>{' '}
            for the programmes open now) and the affiliate earns a commission out of the
            vendor&apos;s share. You pay the same price.
          </li>
          <li>
            <strong>Refunds</strong> follow our <Link to="/refund-policy">refund policy</Link>.
          </li>
        </ul>
      </Section>

      <Section id="vendors" title="Selling: vendor responsibilities">
        <p>If you sell on Tradeshelf, you agree to the following.</p>
        <ul>
          <li>
            You own, or have the right to sell, everything you list, including any code, data,
            videos and names in it.
          </li>
          <li>
            Listings are accurate: what the product does, which platforms it works with, what the
            buyer gets and for how long. Deliver what the listing promises for as long as the buyer
            has paid for it.
          </li>
          <li>
            No promises of profit and no performance figures you cannot substantiate. Backtested or
            hypothetical results must be labelled as such. Nothing you sell may be presented as
            personal investment advice unless you are licensed to give it where your buyers are.
          </li>
          <li>
            Answer buyers. A buyer who names your storefront in our contact form sends you a copy of
            the message with their e-mail address to reply to; use that address only to answer them.
          </li>
          <li>
            Honour refunds made under our refund policy and keep to the laws that apply to you,
            taxes included.
          </li>
        </ul>
      </Section>

      <Section id="fees" title="Fees and payouts for vendors">
        <ul>
          <li>
            The platform fee is <strong>{fee} of each payment</strong>, renewals included, and is
            taken before your share. There is no monthly fee and no listing fee.
          </li>
          <li>
            A sale through an affiliate&apos;s referral link also pays the affiliate&apos;s
            commission out of that payment; the rest is yours.
          </li>
          <li>
            When a payment is refunded, in part or in whole, the fee, the commission and your share
            of it are reversed in the same proportion. A payment disputed with the buyer&apos;s bank
            is reversed the same way, and the access it gave the buyer ends.
          </li>
          <li>
            Once your Stripe account is connected, your share of each sale is paid to it as the
            buyer pays; Stripe&apos;s own terms apply to that account and to its payouts.
          </li>
          <li>We may remove a listing that breaks these terms.</li>
        </ul>
      </Section>

      <Section id="advice" title="No financial advice">
        <p>
          Nothing sold or said on Tradeshelf is financial advice. Read our{' '}
          <Link to="/risk-disclosure">risk disclosure</Link> before you buy or trade.
        </p>
      </Section>

      <Section id="liability" title="Our responsibility">
        <p>
          We keep the marketplace running and your records correct, and we step in when a purchase
          goes wrong. Vendors are responsible for their products. We are not responsible for trading
          decisions or losses, whatever tool, alert or community they relied on.
        </p>
      </Section>

      <Section id="changes" title="Changes">
        <p>
          When these terms change, the new version applies from the day it is published here; what
          you already bought stays under the terms you bought it under.
        </p>
      </Section>
    </PolicyPage>
  );
}
