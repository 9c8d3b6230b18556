import { type AnalyticsInterval, vendorEndpoints } from '@tradeshelf/contract/client';
import type { VendorAnalytics } from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

/** What the screen asks for: a whole range (the API's defaults are for scripts). */
export interface AnalyticsFilters {
  from: string;
  to: string;
  interval: AnalyticsInterval;
  productId?: string;
}

/** The caller's analytics for a range (GET /api/v1/vendor/analytics). */
export const fetchVendorAnalytics = requestThunk<AnalyticsFilters, VendorAnalytics>(
  'vendor/analytics',
  (query, { api }) => api.call(vendorEndpoints.vendorAnalytics, { query }),
);

/**
 * The same range as CSV text, fetched with the bearer token (the client sends no cookies). Text,
 * not the Blob: actions stay serialisable; the screen makes the file.
 */
export const downloadVendorAnalyticsCsv = requestThunk<AnalyticsFilters, string>(
  'vendor/analytics/export',
  async (query, { api }) =>
    (await api.call(vendorEndpoints.vendorAnalyticsExport, { query })).text(),
);
