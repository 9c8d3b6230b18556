/** Catalogue enums, labels and limits: plain values, no zod, safe for the browser. */

export const productKinds = [
  'indicator',
  'scanner',
  'alert',
  'community',
  'course',
  'app',
] as const;
export type ProductKind = (typeof productKinds)[number];

/**
 * What a bundle gives of each product, by kind. A bundle is paid once, so what it grants has no end
 * date and nothing renews (entitlements and licences end only on a refund, a dispute or a revocation:
 * ADR 031, 032, 046), whatever plan the product is sold on by itself (issue 27).
 */
export const bundleItemTerms: Record<ProductKind, string> = {
  indicator: 'Access with no end date, no renewals',
  scanner: 'Access with no end date, no renewals',
  alert: 'Alerts with no end date, no renewals',
  community: 'Discord role with no end date, no renewals',
  course: 'Course access with no end date, no renewals',
  app: 'Licence with no expiry, no renewals',
};

/** Catalogue categories as buyers see them (`category=discord` lists Discord communities). */
export const catalogCategories = [
  'indicators',
  'scanners',
  'alerts',
  'discord',
  'courses',
  'apps',
  'bundles',
] as const;
export type CatalogCategory = (typeof catalogCategories)[number];

export const categoryOfKind: Record<ProductKind, CatalogCategory> = {
  indicator: 'indicators',
  scanner: 'scanners',
  alert: 'alerts',
  community: 'discord',
  course: 'courses',
  app: 'apps',
};

export const categoryLabels: Record<CatalogCategory, string> = {
  indicators: 'Indicators',
  scanners: 'Scanners',
  alerts: 'Alerts',
  discord: 'Discord communities',
  courses: 'Courses',
  apps: 'Apps',
  bundles: 'Bundles',
};

export const tradingPlatforms = [
  'tradingview',
  'mt4',
  'mt5',
  'ninjatrader',
  'ctrader',
  'thinkorswim',
  'tradestation',
  'other',
] as const;
export type TradingPlatform = (typeof tradingPlatforms)[number];
export const platformLabels: Record<TradingPlatform, string> = {
  tradingview: 'TradingView',
  mt4: 'MetaTrader 4',
  mt5: 'MetaTrader 5',
  ninjatrader: 'NinjaTrader',
  ctrader: 'cTrader',
  thinkorswim: 'thinkorswim',
  tradestation: 'TradeStation',
  other: 'Other',
};

export const assetClasses = [
  'stocks',
  'options',
  'futures',
  'forex',
  'crypto',
  'indices',
  'commodities',
] as const;
export type AssetClass = (typeof assetClasses)[number];

export const priceIntervals = ['week', 'month', 'quarter', 'year'] as const;

export const searchSorts = [
  'relevance',
  'newest',
  'price_asc',
  'price_desc',
  'rating',
  'best_selling',
] as const;
export const SEARCH_Q_MAX = 200;
export const SEARCH_LIMIT_MAX = 50;
/** Alternatives a search with no result offers at most, and the count each one's matches stop at. */
export const SEARCH_SUGGESTIONS_MAX = 4;
export const SEARCH_SUGGESTION_COUNT_MAX = 100;

/** Cover plus gallery. */
export const PRODUCT_IMAGES_MAX = 8;

export const catalogMessages = {
  vendorNotFound: 'We could not find that vendor.',
  productNotFound: 'We could not find that product.',
  bundleNotFound: 'We could not find that bundle.',
  badCursor: 'That page link has expired. Start the search again.',
  ownListingsOnly: 'Only the vendor can see inactive listings.',
  tooManyImages: `A product has at most ${PRODUCT_IMAGES_MAX} pictures. Remove one first.`,
} as const;
