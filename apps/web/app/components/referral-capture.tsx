import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { captureReferral } from '../lib/cookies.ts';

/**
 * `?ref=<refId>` on any page remembers the affiliate in the `referral_id` cookie for 30 days (the
 * last click wins). Client only; the checkout reads it back into its `refId`.
 */
export function ReferralCapture() {
  const { search } = useLocation();
  useEffect(() => {
    captureReferral(search, Date.now());
  }, [search]);
  return null;
}
