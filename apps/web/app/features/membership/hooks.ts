import { useEffect } from 'react';
import {
  memberDiscountOf,
  PLATFORM_VENDOR_URL,
  plans,
  type PlanId,
} from '@tradeshelf/contract/client';
import type { Membership } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchMembership } from './api.ts';

/** The signed-in buyer's plan, read once per sign-in; null when signed out or without one. */
export function useMembership(): { membership: Membership | null; loaded: boolean } {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const status = useAppSelector((s) => s.membership.status);
  useEffect(() => {
    if (isLoggedIn && status.status === 'idle') void dispatch(fetchMembership());
  }, [dispatch, isLoggedIn, status.status]);
  return {
    membership: isLoggedIn ? (status.data ?? null) : null,
    loaded: !isLoggedIn || status.status === 'success' || status.status === 'failure',
  };
}

/**
 * What a member saves on a price of another vendor: the same rule checkout applies on the server
 * (which decides; this only shows it). Null when no member price applies.
 */
export function useMemberPrice(
  amount: number,
  vendorUrl: string,
): { plan: PlanId; name: string; discount: number } | null {
  const { membership } = useMembership();
  if (!membership || vendorUrl.toLowerCase() === PLATFORM_VENDOR_URL) return null;
  const discount = memberDiscountOf(
    amount,
    membership.grants.memberDiscountPercent,
    membership.platformFee,
  );
  return discount > 0
    ? { plan: membership.plan, name: plans[membership.plan].name, discount }
    : null;
}
