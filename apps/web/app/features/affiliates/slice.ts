import { createSlice } from '@reduxjs/toolkit';
import type { AffiliateVendor, Invitation, Payout } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import {
  addRequestCases,
  fail,
  idle,
  start,
  succeed,
  type RequestState,
} from '../../lib/request-state.ts';
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
    b.addCase(generateReferral.pending, (s) => start(s.generate))
      .addCase(generateReferral.rejected, (s, a) => fail(s.generate, a.payload))
      // docs/product.md#affiliate-group: generating a referral sets refId on the matching vendor.
      .addCase(generateReferral.fulfilled, (s, a) => {
        succeed(s.generate, a.payload);
        const vendor = s.vendors.data?.find((v) => v.vendorId === a.payload.vendorId);
        if (vendor) Object.assign(vendor, a.payload);
      })
      .addCase(requestPayout.pending, (s) => start(s.payout))
      .addCase(requestPayout.rejected, (s, a) => fail(s.payout, a.payload))
      // docs/product.md#affiliate-group: a payout goes to the front of withdrawals; availableBalance falls by its amount
      // (not below 0) and totalWithdrawn rises by it. A payout the provider refused at once moved
      // nothing.
      .addCase(requestPayout.fulfilled, (s, a) => {
        succeed(s.payout, a.payload);
        const page = s.referrals.data;
        if (!page) return;
        page.withdrawals = [a.payload, ...page.withdrawals.filter((w) => w.id !== a.payload.id)];
        if (a.payload.status === 'failed') return;
        const amount = a.payload.amount.amount;
        const stats = page.stats;
        stats.availableBalance.amount = Math.max(0, stats.availableBalance.amount - amount);
        stats.totalWithdrawn.amount += amount;
        // Until the page reloads its stats, what is left cannot be paid out under the minimum.
        if (stats.availableBalance.amount < stats.minimumPayout.amount)
          stats.canRequestPayout = false;
      })
      .addCase(acceptInvite.pending, (s) => start(s.acceptInvite))
      .addCase(acceptInvite.rejected, (s, a) => fail(s.acceptInvite, a.payload))
      // docs/product.md#affiliate-group: accepting appends the referral and removes the invite with its refId and vendorId.
      .addCase(acceptInvite.fulfilled, (s, a) => {
        succeed(s.acceptInvite, a.payload);
        if (s.vendors.data) upsertVendor(s.vendors.data, a.payload);
        if (s.invites.data)
          s.invites.data = s.invites.data.filter(
            (i) =>
              !(i.refId === a.payload.refId && i.vendorId === a.payload.vendorId) &&
              i.id !== a.meta.arg.id,
          );
      })
      // An affiliate's earnings are theirs: nothing outlives the session.
      .addCase(sessionEnded, () => initialAffiliateState)
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.affiliate));
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(affiliateSlice);
