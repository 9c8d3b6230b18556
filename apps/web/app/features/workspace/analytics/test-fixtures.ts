import type { AnalyticsPoint, AnalyticsTotals } from '@tradeshelf/contract';

const gross = 34_000;
const refunds = 10_000;
const fee = 1_200;
const affiliate = 2_000;

/** One period's (or a range's) figures: four sales, one refunded, a fee and a commission. */
export const figures: Omit<AnalyticsPoint, 'period'> = {
  gross,
  refunds,
  fee,
  affiliate,
  // What the vendor keeps: 20,800.
  net: gross - refunds - fee - affiliate,
  sales: 4,
  refundCount: 1,
};

export const usdFigures: AnalyticsTotals = { currency: 'usd', ...figures };
