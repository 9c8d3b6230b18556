import type { Invitation, Payout } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import {
  acceptInvite,
  fetchAffiliateVendors,
  fetchInvites,
  fetchReferrals,
  generateReferral,
  requestPayout,
  stripeCallback,
  type ReferralsPage,
} from './api.ts';
import { affiliateSlice, initialAffiliateState, type AffiliateState } from './slice.ts';
import { stats, usd, vendor } from './test-fixtures.ts';

const reduce = (s: AffiliateState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => affiliateSlice.reducer(x, a), s);

const page = (available: number, withdrawn: number): ReferralsPage => ({
  referrals: [],
  withdrawals: [],
  nextCursor: null,
  stats: stats(available, withdrawn),
});

const payout = (amount: number, status: Payout['status'] = 'paid'): Payout => ({
  id: `pay_${amount}_${status}`,
  amount: usd(amount),
  status,
  failureReason: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
});

const invite = (id: string, vendorId: string, refId: string): Invitation => ({
  id,
  refId,
  vendorId,
  vendorUrl: vendorId,
  vendorName: `Vendor ${vendorId}`,
  email: 'a@example.com',
  commissionBps: 3000,
  cookieDays: 60,
  status: 'pending',
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-12-24T10:00:00.000Z',
});

describe('affiliate group (docs/product.md#affiliate-group)', () => {
  it('generating a referral sets refId on the matching vendor only', () => {
    const s = reduce(
      initialAffiliateState,
      fetchAffiliateVendors.fulfilled([vendor('a'), vendor('b')], 'r'),
      generateReferral.fulfilled(vendor('b', 'b-123'), 'r2', 'b'),
    );
    expect(s.vendors.data!.map((v) => v.refId)).toEqual([null, 'b-123']);
    expect(s.generate).toMatchObject({ status: 'success', data: { refId: 'b-123' } });
  });

  it('a payout goes first in withdrawals, lowers the balance (not below 0) and raises the total', () => {
    let s = reduce(
      initialAffiliateState,
      fetchReferrals.fulfilled({ ...page(6000, 1000), withdrawals: [payout(1000)] }, 'r'),
      requestPayout.fulfilled(payout(6000), 'r2'),
    );
    expect(s.referrals.data!.withdrawals.map((w) => w.amount.amount)).toEqual([6000, 1000]);
    expect(s.referrals.data!.stats.availableBalance.amount).toBe(0);
    expect(s.referrals.data!.stats.totalWithdrawn.amount).toBe(7000);
    s = reduce(s, requestPayout.fulfilled(payout(500), 'r3'));
    expect(s.referrals.data!.stats.availableBalance.amount).toBe(0);
    // Refused at once: listed, but no money moved.
    s = reduce(s, requestPayout.fulfilled(payout(700, 'failed'), 'r4'));
    expect(s.referrals.data!.withdrawals[0]!.status).toBe('failed');
    expect(s.referrals.data!.stats.totalWithdrawn.amount).toBe(7500);
  });

  it('accepting an invite appends the referral and removes that invite', () => {
    const s = reduce(
      initialAffiliateState,
      fetchAffiliateVendors.fulfilled([vendor('a', 'a-1')], 'r'),
      fetchInvites.fulfilled([invite('inv_1', 'b', 'b-9'), invite('inv_2', 'c', 'c-9')], 'r2'),
      acceptInvite.fulfilled(vendor('b', 'b-9'), 'r3', { id: 'inv_1', vendorId: 'b' }),
    );
    expect(s.vendors.data!.map((v) => [v.vendorId, v.refId])).toEqual([
      ['a', 'a-1'],
      ['b', 'b-9'],
    ]);
    expect(s.invites.data!.map((i) => i.id)).toEqual(['inv_2']);
  });

  it('a failed provider callback stores its error, or "Something went wrong"', () => {
    let s = reduce(
      initialAffiliateState,
      stripeCallback.rejected(null, 'r', undefined, {
        error: 'Connect your payout account first.',
        code: 'business_rule',
      }),
    );
    expect(s.stripeCallback).toMatchObject({
      status: 'failure',
      error: { error: 'Connect your payout account first.' },
    });
    s = reduce(s, stripeCallback.rejected(new Error('network'), 'r2', undefined));
    expect(s.stripeCallback.error?.error).toBe('Something went wrong');
  });

  it('forgets everything when the session ends', () => {
    const s = reduce(
      initialAffiliateState,
      fetchReferrals.fulfilled(page(100, 0), 'r'),
      sessionEnded(),
    );
    expect(s).toEqual(initialAffiliateState);
  });
});
