import type { AffiliateStats, AffiliateVendor } from '@tradeshelf/contract';

export const usd = (amount: number) => ({ amount, currency: 'usd' });

/** A vendor the affiliate can join; joined once it has a `refId`. */
export const vendor = (id: string, refId: string | null = null): AffiliateVendor => ({
  vendorId: id,
  vendorUrl: id,
  name: `Vendor ${id}`,
  refId,
  shareUrl: refId ? `https://x.test/v/${id}?ref=${refId}` : null,
  commissionBps: 2000,
  cookieDays: 30,
  open: true,
  joined: refId !== null,
});

/** Earnings with `available` to pay out (minor units), `withdrawn` paid out before, and a ready account. */
export const stats = (available: number, withdrawn = 0): AffiliateStats => ({
  availableBalance: usd(available),
  pendingBalance: usd(0),
  totalWithdrawn: usd(withdrawn),
  totalEarned: usd(available + withdrawn),
  clicks: 0,
  sales: 0,
  holdDays: 30,
  minimumPayout: usd(5000),
  payoutAccount: 'ready',
  payoutAccountName: 'Stripe account ••••ab12',
  canRequestPayout: true,
  payoutBlockedReason: null,
  balances: [],
  earnings: [],
  links: [],
});
