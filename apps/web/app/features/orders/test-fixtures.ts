import type { Purchase } from '@tradeshelf/contract';

/** A purchase as the API presents it, for reducer tests. */
export function purchase(o: Partial<Purchase> = {}): Purchase {
  return {
    id: 'pur_1',
    sessionId: 'cs_1',
    status: 'pending',
    item: {
      type: 'product',
      id: 'prd_1',
      slug: 'volume-weighted-macd',
      title: 'Volume Weighted MACD',
      priceId: 'price_1',
      vendor: { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge Labs' },
    },
    scheme: 'one_time',
    subtotal: { amount: 7900, currency: 'usd' },
    discount: { amount: 1580, currency: 'usd' },
    total: { amount: 6320, currency: 'usd' },
    paid: { amount: 0, currency: 'usd' },
    refunded: { amount: 0, currency: 'usd' },
    coupon: { code: 'SAVE20', duration: 'forever' },
    memberPrice: null,
    subscription: null,
    receiptNumber: null,
    entitlements: [],
    createdAt: '2026-11-22T12:00:00.000Z',
    paidAt: null,
    refundedAt: null,
    refundReason: null,
    disputedAt: null,
    revoked: null,
    ...o,
  };
}
export const paid = (o: Partial<Purchase> = {}) =>
  purchase({
    status: 'paid',
    receiptNumber: 'R-0001',
    paidAt: '2026-11-22T12:01:00.000Z',
    paid: { amount: 6320, currency: 'usd' },
    ...o,
  });
