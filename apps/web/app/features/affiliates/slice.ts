import { createSlice } from '@reduxjs/toolkit';
import type { AffiliateVendor, Invitation, Payout } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { addRequestCases, idle, type RequestState } from '../../lib/request-state.ts';
import {
  acceptInvite,
  fetchAffiliateVendors,
  fetchInvites,
  fetchReferrals,
  generateReferral,
  requestPayout,
  startPayoutOnboarding,
  stripeCallback,
  type CallbackResult,
  type ReferralsPage,
} from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/** The affiliate group (docs/product.md#request-groups): each call's status, data and error. */
export interface AffiliateState {
  vendors: RequestState<AffiliateVendor[]>;
  generate: RequestState<AffiliateVendor>;
  referrals: RequestState<ReferralsPage>;
  payout: RequestState<Payout>;
  acceptInvite: RequestState<AffiliateVendor>;
  invites: RequestState<Invitation[]>;
  connect: RequestState<string>;
  stripeCallback: RequestState<CallbackResult>;
}

export const initialAffiliateState: AffiliateState = {
  vendors: idle(),
  generate: idle(),
  referrals: idle(),
  payout: idle(),
  acceptInvite: idle(),
  invites: idle(),
  connect: idle(),
  stripeCallback: idle(),
};

/** A vendor entry replaces the one with its vendor id, or joins the list. */
function upsertVendor(list: AffiliateVendor[], referral: AffiliateVendor) {
  const at = list.findIndex((v) => v.vendorId === referral.vendorId);
  if (at >= 0) list[at] = referral;
  else list.push(referral);
}

export const affiliateSlice = createSlice({
  name: 'affiliate',
  initialState: initialAffiliateState,
  reducers: {},
  extraReducers: (b) => {
    addRequestCases(b, fetchAffiliateVendors, (s) => s.vendors);
    addRequestCases(b, fetchReferrals, (s) => s.referrals);
    addRequestCases(b, fetchInvites, (s) => s.invites);
    addRequestCases(b, startPayoutOnboarding, (s) => s.connect);
    // docs/product.md#affiliate-group: a failed provider callback stores its error, or "Something went wrong" (`fail`).
    addRequestCases(b, stripeCallback, (s) => s.stripeCallback);
    // docs/product.md#affiliate-group: generating a referral sets refId on the matching vendor.
    addRequestCases(b, generateReferral, (s) => s.generate, {
      done: (s, referral) => {
        const vendor = s.vendors.data?.find((v) => v.vendorId === referral.vendorId);
        if (vendor) Object.assign(vendor, referral);
      },
    });
    // docs/product.md#affiliate-group: a payout goes to the front of withdrawals; availableBalance falls by its amount
    // (not below 0) and totalWithdrawn rises by it. A payout the provider refused at once moved
    // nothing.
    addRequestCases(b, requestPayout, (s) => s.payout, {
      done: (s, payout) => {
        const page = s.referrals.data;
        if (!page) return;
        page.withdrawals = [payout, ...page.withdrawals.filter((w) => w.id !== payout.id)];
        if (payout.status === 'failed') return;
        const amount = payout.amount.amount;
        const stats = page.stats;
        stats.availableBalance.amount = Math.max(0, stats.availableBalance.amount - amount);
        stats.totalWithdrawn.amount += amount;
        // Until the page reloads its stats, what is left cannot be paid out under the minimum.
        if (stats.availableBalance.amount < stats.minimumPayout.amount)
          stats.canRequestPayout = false;
      },
    });
    // docs/product.md#affiliate-group: accepting appends the referral and removes the invite with its refId and vendorId.
    addRequestCases(b, acceptInvite, (s) => s.acceptInvite, {
      done: (s, referral, arg) => {
        if (s.vendors.data) upsertVendor(s.vendors.data, referral);
        if (s.invites.data)
          s.invites.data = s.invites.data.filter(
            (i) =>
              !(i.refId === referral.refId && i.vendorId === referral.vendorId) && i.id !== arg.id,
          );
      },
    });
    // An affiliate's earnings are theirs: nothing outlives the session.
    b.addCase(sessionEnded, () => initialAffiliateState).addCase(hydrate, (s, a) =>
      mergeState(s, a.payload.affiliate),
    );
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(affiliateSlice);
