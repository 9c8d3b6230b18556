import type { TradingViewAccessItem, TradingViewAccessResponse } from '@tradeshelf/contract';

export function item(over: Partial<TradingViewAccessItem> = {}): TradingViewAccessItem {
  return {
    id: 'ent_1',
    purchaseId: 'pur_1',
    product: { id: 'prd_rsi', slug: 'rsi-divergence-pro', title: 'RSI Divergence Pro' },
    vendor: { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge Labs' },
    scripts: [
      {
        id: 'tvs_1',
        name: 'RSI Divergence Pro',
        url: 'https://www.tradingview.com/script/Rd7Kq2Lm-RSI-Divergence-Pro/',
      },
    ],
    username: null,
    status: 'needs_username',
    message: 'Add your TradingView username to get access',
    endsAt: null,
    endedReason: null,
    ...over,
  };
}

export function accessOf(
  username: string | null,
  ...items: TradingViewAccessItem[]
): TradingViewAccessResponse {
  return {
    tradingview: { username, changedAt: username ? '2026-03-01T10:00:00.000Z' : null },
    access: items,
  };
}
