/** Affiliate programme enums, limits and messages: plain values, no zod (ADR 012, ADR 037). */

/**
 * A payout's life at the provider: `requested` (debited from the balance, transfer under way),
 * `paid`, `failed` (the provider refused it; the amount is back in the balance) or `returned` (paid,
 * then reversed by the provider; back in the balance).
 */
export const payoutStatuses = ['requested', 'paid', 'failed', 'returned'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/**
 * A referred sale's commission: `pending` during the hold, `available` after it, `clawed_back`
 * when a refund or dispute took all of it back.
 */
export const commissionStates = ['pending', 'available', 'clawed_back'] as const;
export type CommissionState = (typeof commissionStates)[number];

/** Whom a connected payout account is for: a vendor's sales or an affiliate's payouts. */
export const connectPurposes = ['vendor', 'affiliate'] as const;
export type ConnectPurpose = (typeof connectPurposes)[number];

/** Where the affiliate's payout account stands at the provider. */
export const payoutAccountStates = ['none', 'pending', 'ready'] as const;
export type PayoutAccountState = (typeof payoutAccountStates)[number];

export const AFFILIATE_COMMISSION_MAX_BPS = 9000;
export const AFFILIATE_COOKIE_DAYS_MAX = 365;

/**
 * Invitation e-mails a vendor may send a day (ADR 052): they go to any address, so they are capped,
 * more tightly for a new vendor (a storefront younger than `NEW_VENDOR_DAYS`, or with no sale yet).
 */
export const AFFILIATE_INVITES_PER_DAY = 50;
export const AFFILIATE_INVITES_PER_DAY_NEW_VENDOR = 10;
export const NEW_VENDOR_DAYS = 14;

/** The 429 when a vendor has sent its day's invitations; `wait` is e.g. "5 hours". */
export function inviteLimitMessage(limit: number, newVendor: boolean, wait: string): string {
  const who = newVendor
    ? `A new storefront (under ${NEW_VENDOR_DAYS} days old, or with no sale yet)`
    : 'You';
  return `${who} can send ${limit} affiliate invitations a day, and today's are sent. Try again in ${wait}.`;
}

/** What the dashboard and the API say. */
export const affiliateMessages = {
  vendorNotFound: 'We could not find that vendor’s affiliate programme.',
  inviteOnly: 'This vendor’s programme is by invitation only.',
  inviteNotFound:
    'We could not find this invitation for your account. An invitation can only be accepted by the e-mail address it was sent to.',
  inviteSelf: 'You cannot invite yourself to your own programme.',
  commissionRange: `Set a commission from 0% to ${AFFILIATE_COMMISSION_MAX_BPS / 100}%, in steps of 0.01%.`,
  cookieDaysRange: `Remember a visit for 1 to ${AFFILIATE_COOKIE_DAYS_MAX} whole days.`,
  inviteAccepted: 'This invitation was already accepted, so it cannot be withdrawn.',
  inviteRevoked: 'Invitation withdrawn.',
  badCursor: 'That page has expired. Reload the list.',
  invited: 'Invitation sent.',
  inviteRenewed:
    'Terms updated. This address was e-mailed less than 10 minutes ago, so no new e-mail was sent.',
  vendorsOnly: 'Only vendors can run an affiliate programme.',
  payoutNotFound: 'We could not find that payout.',
  connectFirst: 'Connect your payout account first.',
  connectPending: 'The payment provider still needs details before it can pay you out.',
  connectReady: 'Your payout account is connected. Payouts go to it.',
  nothingAvailable: 'Nothing is available to pay out yet.',
  payoutRequested: 'Payout requested.',
  providerRefused: 'The payment provider refused the transfer.',
  providerReversed: 'The payment provider reversed the transfer.',
  callbackFailed: 'Something went wrong',
} as const;

/** "Payouts start at $50.00; $12.34 is available." */
export function belowMinimumMessage(minimum: string, available: string): string {
  return `Payouts start at ${minimum}; ${available} is available.`;
}
