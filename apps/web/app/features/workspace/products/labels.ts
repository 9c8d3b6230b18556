import type { AssetClass, ProductKind, VendorProductStatus } from '@tradeshelf/contract';

export const kindLabels: Record<ProductKind, string> = {
  indicator: 'Indicator',
  scanner: 'Scanner',
  alert: 'Alert',
  community: 'Discord community',
  course: 'Course',
  app: 'App',
};

export const statusLabels: Record<VendorProductStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  unpublished: 'Unpublished',
};

export const statusStyles: Record<VendorProductStatus, string> = {
  draft: 'border-ink-600 text-slate-300',
  published: 'border-brand-500/50 text-brand-300',
  unpublished: 'border-amber-500/50 text-amber-300',
};

export const assetClassLabels: Record<AssetClass, string> = {
  stocks: 'Stocks',
  options: 'Options',
  futures: 'Futures',
  forex: 'Forex',
  crypto: 'Crypto',
  indices: 'Indices',
  commodities: 'Commodities',
};
