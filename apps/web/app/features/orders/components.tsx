import { Link } from 'react-router';
import type {
  Entitlement,
  Money,
  Purchase,
  PurchaseStatus,
  SubscriptionStatus,
} from '@tradeshelf/contract';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { APPS_PATH, bundlePath, coursePath, productPath } from '../../lib/paths.ts';

export const orderPath = (p: { id: string }) => `/orders/${encodeURIComponent(p.id)}`;
/** The product or bundle page of what was bought. */
export const itemPath = (item: Purchase['item']) =>
  item.type === 'bundle' ? bundlePath(item) : productPath(item);

export const money = (m: Money) => formatMoney(m.amount, m.currency);

const statusStyle: Record<PurchaseStatus, [string, string]> = {
  pending: ['Pending', 'bg-amber-500/20 text-amber-200'],
  paid: ['Paid', 'bg-brand-500/20 text-brand-200'],
  failed: ['Failed', 'bg-rose-500/20 text-rose-200'],
  cancelled: ['Cancelled', 'bg-slate-500/20 text-slate-300'],
  refunded: ['Refunded', 'bg-violet-500/20 text-violet-200'],
};

export function StatusBadge({ status }: { status: PurchaseStatus }) {
  const [label, style] = statusStyle[status];
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap print:border print:border-black print:bg-transparent print:text-black ${style}`}
    >
      {label}
    </span>
  );
}

export const subscriptionLabels: Record<SubscriptionStatus, string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment past due',
  cancelling: 'Cancels at the end of the period',
  ended: 'Ended',
};

/** One line on a subscription's state: what happens next and when. */
export function subscriptionLine(sub: NonNullable<Purchase['subscription']>): string {
  const on = (iso: string | null) => (iso ? formatDate(iso) : '');
  switch (sub.status) {
    case 'trialing':
      return `Free trial until ${on(sub.trialEndsAt)}`;
    case 'cancelling':
      return `Cancels on ${on(sub.currentPeriodEnd)}`;
    case 'ended':
      return 'Subscription ended';
    case 'past_due':
      return 'Payment past due';
    default:
      return sub.nextPayment ? `Renews on ${on(sub.nextPayment.at)}` : 'Active';
  }
}

const intervalLabels: Record<string, string> = {
  one_time: 'One-time purchase',
  week: 'Weekly plan',
  month: 'Monthly plan',
  quarter: 'Quarterly plan',
  year: 'Yearly plan',
};
export const schemeLabel = (p: Pick<Purchase, 'scheme'>) => intervalLabels[p.scheme] ?? p.scheme;

const entitlementLabels: Record<Entitlement['kind'], string> = {
  access: 'Access',
  course_enrolment: 'Course enrolment',
  licence: 'Licence',
  discord_role: 'Discord role',
};

/** What the purchase gave the buyer. */
export function Entitlements({ items }: { items: Entitlement[] }) {
  return (
    <ul className="flex flex-col gap-1.5 text-sm">
      {items.map((e) => (
        <li
          key={`${e.kind}:${e.productId}`}
          className="flex flex-wrap items-center justify-between gap-2"
        >
          <span>
            <span className="text-slate-400 print:text-black">{entitlementLabels[e.kind]}:</span>{' '}
            <Link
              to={productPath({ id: e.productId, slug: e.productSlug })}
              className="font-medium text-white hover:text-brand-300 print:text-black"
            >
              {e.productTitle}
            </Link>
            {e.kind === 'course_enrolment' && e.status === 'active' && (
              <>
                {' · '}
                <Link
                  to={coursePath(e.productId)}
                  className="font-semibold text-brand-300 underline underline-offset-2 hover:text-brand-200 print:hidden"
                  data-testid="course-open-link"
                >
                  Open the course
                </Link>
              </>
            )}
            {e.kind === 'licence' && e.status === 'active' && (
              <>
                {' · '}
                <Link
                  to={APPS_PATH}
                  className="font-semibold text-brand-300 underline underline-offset-2 hover:text-brand-200 print:hidden"
                  data-testid="licence-manage-link"
                >
                  Manage licence <span className="sr-only">for {e.productTitle}</span>
                </Link>
              </>
            )}
          </span>
          <span className="text-xs text-slate-400 print:text-black">
            {e.status === 'active'
              ? e.endsAt
                ? `until ${formatDate(e.endsAt)}`
                : 'active'
              : 'ended'}
          </span>
        </li>
      ))}
    </ul>
  );
}
