/**
 * The platform's own plans and exactly what each grants (ADR 027): plain values and pure rules, no zod.
 * The plan pages list `planFeatures(plan)`; the API enforces the same numbers.
 */

export const planIds = ['premium', 'pro_plus'] as const;
export type PlanId = (typeof planIds)[number];

/** The platform's own vendor account: it sells the plans, and its products get no member price. */
export const PLATFORM_VENDOR_URL = 'tradeshelf';

export interface PlanGrants {
  /** Off other vendors' products, paid out of the platform's fee (never more than that fee). */
  memberDiscountPercent: number;
  /** Saved searches a member may keep. */
  savedSearches: number;
  /** New-listing alert e-mails a member gets per UTC day, at most. */
  alertMailsPerDay: number;
  /** The reply target for contact messages from the member's e-mail. */
  supportReplyHours: number;
}

export interface Plan extends PlanGrants {
  id: PlanId;
  name: string;
  /** The plan's product slug under the platform vendor. */
  slug: string;
  /** The plan page (docs/product.md#pages). */
  path: '/premium' | '/pro-plus';
}

export const plans: Readonly<Record<PlanId, Plan>> = {
  premium: {
    id: 'premium',
    name: 'Premium',
    slug: 'tradeshelf-premium',
    path: '/premium',
    memberDiscountPercent: 3,
    savedSearches: 10,
    alertMailsPerDay: 3,
    supportReplyHours: 24,
  },
  pro_plus: {
    id: 'pro_plus',
    name: 'Pro Plus',
    slug: 'tradeshelf-pro-plus',
    path: '/pro-plus',
    memberDiscountPercent: 5,
    savedSearches: 50,
    alertMailsPerDay: 10,
    supportReplyHours: 8,
  },
};

/** The plan a page path shows, or null. */
export const planOfPath = (path: string): Plan | null =>
  Object.values(plans).find((p) => p.path === path) ?? null;

/** The plan a product is, when it is one of the platform's (sold on the plan's page), else null. */
export const platformPlanOf = (product: {
  slug: string;
  vendor: { vendorUrl: string };
}): Plan | null =>
  product.vendor.vendorUrl.toLowerCase() === PLATFORM_VENDOR_URL
    ? (Object.values(plans).find((p) => p.slug === product.slug) ?? null)
    : null;

/** Everything a plan grants, as its page and the account page list it. Each line is enforced. */
export function planFeatures(plan: PlanGrants): string[] {
  return [
    `${plan.memberDiscountPercent} % member price on every other vendor's product, paid out of Tradeshelf's fee, so the vendor still earns the full amount (not combined with vendor coupons)`,
    `Save up to ${plan.savedSearches} searches and get an e-mail when a newly published product matches one (at most ${plan.alertMailsPerDay} alert e-mails a day; unsubscribe from any alert in one click)`,
    `Priority support: contact messages from your account's e-mail are marked priority and answered within ${plan.supportReplyHours} hours`,
    'Your plan, renewal date and billing on your account page; cancel any time from the customer portal',
  ];
}

export interface FeeRule {
  /** Basis points of the payment, rounded down. */
  bps: number;
  /** Minor units added to every payment. */
  fixed: number;
}

/** The platform fee on a payment, as the ledger records it: never more than the payment. */
export const platformFeeOf = (amount: number, fee: FeeRule): number =>
  amount <= 0 ? 0 : Math.min(amount, Math.floor((amount * fee.bps) / 10_000) + fee.fixed);

/**
 * A member's discount on a payment of `amount` (minor units): the plan's percentage rounded down, and
 * never more than the platform fee on that amount, because the fee pays for it.
 */
export function memberDiscountOf(amount: number, percent: number, fee: FeeRule): number {
  if (amount <= 0 || percent <= 0) return 0;
  return Math.max(0, Math.min(platformFeeOf(amount, fee), Math.floor((amount * percent) / 100)));
}

export const SAVED_SEARCH_NAME_MAX = 60;

export const membershipMessages = {
  membersOnly: 'Saved searches come with Tradeshelf Premium and Pro Plus.',
  limitReached: (limit: number, plan: string) =>
    `You have saved ${limit} searches, the most ${plan} allows. Delete one to save another.`,
  notFound: 'We could not find that saved search.',
  emptySearch: 'Type a search or pick a filter before saving it.',
  nameRequired: 'Give the search a name.',
  nameTooLong: `Use at most ${SAVED_SEARCH_NAME_MAX} characters.`,
  nothingToChange: 'Send a new name or the alert setting.',
  badUnsubscribeLink: 'This unsubscribe link is not valid. Turn alerts off on your account page.',
  unsubscribed: 'Alerts for this saved search are off.',
  saved: 'Search saved. We will e-mail you when a new product matches.',
} as const;
