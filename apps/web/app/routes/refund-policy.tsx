import { Link } from 'react-router';
import { PolicyPage, Section } from '../legal/policy.tsx';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/refund-policy';

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Refund policy',
    description:
      'How refunds work on Tradeshelf: partial and full refunds through support, automatic refunds of duplicate payments, and free trials you can cancel before they end.',
    path: '/refund-policy',
    origin: originOf(matches),
  });

export default function RefundPolicy() {
  return (
    <PolicyPage
      title="Refund policy"
      intro="Something you bought is not what the listing promised, does not work, or you were charged by mistake? Tell us and we will put it right."
    >
      <Section id="ask" title="Asking for a refund">
        <p>
          Write to us through the <Link to="/contact">contact form</Link> with your order or receipt
          number (it is on your receipt and under Orders) and what went wrong. If you name the
          vendor, they get a copy and can help directly. Our support team decides, with the vendor,
          and answers you by e-mail.
        </p>
      </Section>

      <Section id="partial" title="Partial and full refunds">
        <ul>
          <li>
            <strong>A partial refund</strong> returns part of a payment, for example when a
            subscription period was only partly usable. Your access stays as it is.
          </li>
          <li>
            <strong>A full refund</strong> returns the whole payment and ends the access that
            payment gave you.
          </li>
          <li>
            You are refunded what you actually paid, after any coupon, to the card or account you
            paid with. Banks usually show it within 5 to 10 days.
          </li>
        </ul>
      </Section>

      <Section id="duplicates" title="Duplicate payments are refunded automatically">
        <p>
          If a second payment arrives for something you already own (two checkouts paid at the same
          time in two browser tabs, for example), we refund it in full without you asking and cancel
          the extra subscription if there is one. You get an e-mail saying so; your access does not
          change.
        </p>
      </Section>

      <Section id="trials" title="Free trials">
        <p>
          A free trial costs nothing while it runs. Cancel before it ends with &ldquo;Manage
          subscription&rdquo; on the order and you pay nothing at all. If you keep it, the first
          payment is taken when the trial ends, and this policy applies to it like any other.
        </p>
      </Section>

      <Section id="subscriptions" title="Subscriptions">
        <p>
          Cancel any time with &ldquo;Manage subscription&rdquo; on the order: nothing more is
          charged and your access runs to the end of the period you already paid for. Periods
          already paid are not refunded automatically; if a renewal charged you for a period you
          could not use, write to us.
        </p>
      </Section>

      <Section id="disputes" title="Chargebacks">
        <p>
          Please write to us before disputing a payment with your bank: we can usually refund
          faster. A disputed payment ends the access it gave you.
        </p>
      </Section>

      <Section id="vendors" title="For vendors">
        <p>
          A refund, partial or full, takes back your share, our fee and any affiliate commission on
          that payment in the same proportion. See the <Link to="/terms#fees">terms</Link>.
        </p>
      </Section>
    </PolicyPage>
  );
}
