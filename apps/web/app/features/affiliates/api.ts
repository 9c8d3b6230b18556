import { screenEndpoints } from '@tradeshelf/contract/client';
import type {
  AffiliateStats,
  AffiliateVendor,
  Invitation,
  Payout,
  ReferralSale,
} from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

export interface ReferralsPage {
  referrals: ReferralSale[];
  stats: AffiliateStats;
  withdrawals: Payout[];
  nextCursor: string | null;
}

/** Vendors whose programme is open or joined (the affiliate group, docs/product.md#request-groups). */
export const fetchAffiliateVendors = requestThunk<void, AffiliateVendor[]>(
  'affiliate/vendors',
  async (_arg, { api }) =>
    (await api.call(screenEndpoints.affiliateVendors, { query: { limit: 100 } })).vendors,
);

/** Joins a vendor's open programme: the referral with its id and share link. */
export const generateReferral = requestThunk<string, AffiliateVendor>(
  'affiliate/generate',
  async (vendorId, { api }) =>
    (await api.call(screenEndpoints.generateRef, { body: { vendorId } })).data,
);

/** Referred sales, stats (balances from the ledger) and withdrawals. */
export const fetchReferrals = requestThunk<void, ReferralsPage>(
  'affiliate/referrals',
  (_arg, { api }) => api.call(screenEndpoints.affiliateReferrals, { query: { limit: 50 } }),
);

/** Pays out the whole available balance (empty body). */
export const requestPayout = requestThunk<void, Payout>(
  'affiliate/payout',
  async (_arg, { api }) => (await api.call(screenEndpoints.requestPayout, {})).payout,
);

export const fetchInvites = requestThunk<void, Invitation[]>(
  'affiliate/invites',
  async (_arg, { api }) => (await api.call(screenEndpoints.pendingInvites, {})).invitations,
);

export const acceptInvite = requestThunk<{ id: string; vendorId: string }, AffiliateVendor>(
  'affiliate/acceptInvite',
  async ({ id, vendorId }, { api }) =>
    (await api.call(screenEndpoints.acceptInvite, { params: { id }, query: { vendorId } }))
      .referral,
);

/** Starts payout onboarding at the provider: the page to send the affiliate to. */
export const startPayoutOnboarding = requestThunk<string, string>(
  'affiliate/connect',
  // Changing the payout account needs a current two-factor code (ADR 054).
  async (twoFactorCode, { api }) =>
    (
      await api.call(screenEndpoints.connectAccount, {
        query: { as: 'affiliate' },
        body: twoFactorCode ? { twoFactorCode } : {},
      })
    ).url,
);

export interface CallbackResult {
  message: string;
  payoutsEnabled: boolean;
}

/** After onboarding: the provider's answer (stripeCallback, with a message: docs/product.md#affiliate-group). */
export const stripeCallback = requestThunk<void, CallbackResult>(
  'affiliate/stripeCallback',
  async (_arg, { api }) => {
    const res = await api.call(screenEndpoints.connectAccountCallback, {
      query: { as: 'affiliate' },
    });
    return { message: res.message, payoutsEnabled: res.payoutsEnabled ?? res.chargesEnabled };
  },
);
