import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { endpoints } from '@tradeshelf/contract/client';
import { captureReferral } from '../lib/cookies.ts';
import { useServices } from '../lib/services.tsx';

/**
 * `?ref=<refId>` on any page remembers the affiliate in the `referral_id` cookie (the last click
 * wins) and counts the visit: the server counts a visitor once a day per link and answers the link's
 * cookie window, which the cookie then takes. Client only; the checkout reads it back as `refId`.
 */
export function ReferralCapture() {
  const { search } = useLocation();
  const { api } = useServices();
  useEffect(() => {
    const refId = captureReferral(search, Date.now());
    if (!refId) return;
    api
      .call(endpoints.affiliateClick, { body: { refId } })
      .then((r) => {
        if (r.cookieDays) captureReferral(search, Date.now(), r.cookieDays);
      })
      .catch(() => undefined);
  }, [search, api]);
  return null;
}
