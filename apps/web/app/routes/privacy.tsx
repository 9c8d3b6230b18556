import { Link } from 'react-router';
import { PolicyPage, referralWindowDays, Section } from '../legal/policy.tsx';
import { routes } from '../lib/contract.server.ts';
import { loadFrom } from '../lib/loader-api.ts';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/privacy';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { supportEmail, referralWindow } = await loadFrom(
    context,
    request,
    routes.platformTerms,
    {},
  );
  return { supportEmail, referralWindow };
}

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Privacy policy',
    description:
      'What Tradeshelf stores about you and why: your account, your orders, page-view analytics, the e-mails we send and the messages you send us.',
    path: '/privacy',
    origin: originOf(matches),
  });

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <PolicyPage
      title="Privacy policy"
      intro="We keep what we need to run your account, deliver what you buy and pay vendors, and nothing for advertising. This page lists what we store, where, and why."
    >
      <Section id="account" title="Your account">
        <ul>
          <li>
            <strong>What:</strong> your e-mail address, a hash of your password (argon2id; the
            password itself is never stored), your username, a profile picture if you upload one,
            your roles (buyer, vendor, affiliate), when you signed up and when you confirmed your
            e-mail.
          </li>
          <li>
            <strong>Also:</strong> sign-in sessions, stored as hashes of their refresh tokens, each
            with the browser&apos;s name, the address it came from with its last part removed
            (203.0.113.x) and the country our copy of DB-IP&apos;s free IP database places that
            address in (looked up on our servers, never sent anywhere), so you can recognise your
            devices; and the 6-digit e-mail codes for activation and password resets, stored as
            keyed hashes and valid for 15 minutes.
          </li>
          <li>
            <strong>Why:</strong> to sign you in, show you what you bought and keep other people out
            of your account.
          </li>
        </ul>
      </Section>

      <Section id="orders" title="Your orders">
        <ul>
          <li>
            <strong>What:</strong> what you bought, from which vendor, the price, any coupon, the
            receipt number, the order&apos;s status (paid, trial, renewed, cancelled, refunded in
            part or in whole, disputed), the access it gives you, and the payment provider&apos;s
            references for the customer, payment and subscription. Card details go to Stripe and
            never reach us.
          </li>
          <li>
            <strong>Also:</strong> a ledger of each payment&apos;s split between the vendor, our fee
            and any affiliate commission, and the affiliate referral a purchase came through.
          </li>
          <li>
            <strong>Why:</strong> to give you access, send receipts, handle refunds and disputes,
            pay vendors and affiliates, and keep the accounting records the law requires. A vendor
            receives the payment for your order through Stripe; we do not give vendors your e-mail
            address unless you write to them through our contact form.
          </li>
        </ul>
      </Section>

      <Section id="analytics" title="Page-view analytics">
        <ul>
          <li>
            <strong>What:</strong> for each page you view, the page&apos;s address and title, the
            page you came from, the time, your browser&apos;s user-agent string and a random id your
            browser keeps; once you sign in, your user id. No IP address is stored with page views.
          </li>
          <li>
            <strong>Why:</strong> to count visits and see which pages help people find what they
            need. The analytics are our own: no third-party trackers, no advertising networks.
          </li>
        </ul>
      </Section>

      <Section id="mail" title="E-mails we send">
        <ul>
          <li>
            <strong>What:</strong> every e-mail we send you (activation and reset codes, receipts,
            trial and refund notices, contact confirmations) is first written to an outbox with its
            recipient, subject and text, then delivered.
          </li>
          <li>
            <strong>Why:</strong> so that no e-mail is lost or sent twice when delivery fails, and
            so that support can see what you were sent.
          </li>
        </ul>
      </Section>

      <Section id="contact" title="Messages you send us">
        <ul>
          <li>
            <strong>What:</strong> your name, e-mail address, subject and message, the order or
            vendor you mention, the account registered with that e-mail (if any) and the IP address
            the message came from.
          </li>
          <li>
            <strong>Why:</strong> to answer you and to deal with abuse of the form. If you name a
            vendor, they receive a copy with your name and e-mail address so that they can reply.
          </li>
        </ul>
      </Section>

      <Section id="browser" title="In your browser">
        <ul>
          <li>
            Local storage: <code>tokens</code> and <code>token</code> hold your session;{' '}
            <code>ts_anon</code> is the random analytics id.
          </li>
          <li>
            Cookies: <code>referral_id</code> after you follow an affiliate&apos;s link, for as long
            as that vendor&apos;s programme says (
            <span data-testid="referral-window">
              {referralWindowDays(loaderData.referralWindow)}
            </span>{' '}
            for the programmes open now); <code>auth_token_vendor</code>,{' '}
            <code>access_token_expiry</code> and <code>user_details</code> once you become a vendor,
            expiring with your vendor session. Our own requests never send cookies.
          </li>
        </ul>
      </Section>

      <Section id="security" title="Security records">
        <ul>
          <li>
            To stop password guessing and spam, we count recent attempts per IP address and per
            e-mail address; each count disappears within an hour.
          </li>
          <li>
            Our servers log each request&apos;s method, path, status, IP address and a request id,
            to find faults and investigate abuse.
          </li>
        </ul>
      </Section>

      <Section id="processors" title="Who else handles your data">
        <p>
          Stripe (payments and vendor payouts), our e-mail delivery provider, our file storage
          (profile pictures and product images) and our hosting provider, each only to provide that
          service to us.
        </p>
      </Section>

      <Section id="rights" title="Your choices">
        <p>
          You can ask for a copy of your data, a correction, or deletion of your account through our{' '}
          <Link to="/contact">contact form</Link> or by writing to{' '}
          <a href={`mailto:${loaderData.supportEmail}`}>{loaderData.supportEmail}</a>. We handle
          these requests by hand; records the law requires us to keep (such as payments) are kept
          for as long as it requires.
        </p>
      </Section>
    </PolicyPage>
  );
}
