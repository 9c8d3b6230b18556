import type { AssetClass, ProductKind, TradingPlatform } from '@tradeshelf/contract';

/**
 * What a trader types, and what must come back in the first three results, over the demo catalogue
 * (demo-data.ts). relevance.test.ts runs every case and reports the share that pass.
 */
export interface RelevanceCase {
  q: string;
  /** Other search parameters (filters, sort). */
  params?: Record<string, string>;
  /** Each of these product titles is among the first three products. */
  top?: string[];
  /** At least one of these product titles is among the first three products. */
  anyOf?: string[];
  /** Every one of the first three products (at least one) has these fields. */
  every?: { kind?: ProductKind; platform?: TradingPlatform; asset?: AssetClass };
  /** Each of these bundle titles is among the first three bundles. */
  bundles?: string[];
  /** The spelling correction the answer names. */
  didYouMean?: string;
  /** Nothing is found, and each of these queries is offered instead. */
  suggests?: string[];
}

export const relevanceCases: RelevanceCase[] = [
  // Issue 14, as reported.
  { q: 'rsi indicator', top: ['RSI Divergence Pro'], every: { kind: 'indicator' } },
  {
    q: 'divergence indicator',
    top: ['RSI Divergence Pro', 'Cumulative Delta Divergence'],
    every: { kind: 'indicator' },
  },
  { q: 'mt5', every: { platform: 'mt5' } },
  { q: 'tradingveiw', didYouMean: 'tradingview', every: { platform: 'tradingview' } },
  { q: 'divergnce indicatr', didYouMean: 'divergence indicator', top: ['RSI Divergence Pro'] },

  // Product types, singular and plural, and their everyday names.
  { q: 'indicators', every: { kind: 'indicator' } },
  { q: 'scanners', every: { kind: 'scanner' } },
  { q: 'stock screener', every: { kind: 'scanner', asset: 'stocks' } },
  { q: 'alert', anyOf: ['Low Float Runner Alerts', 'London Breakout Alerts', 'Big Print Alerts'] },
  { q: 'communities', every: { kind: 'community' } },
  { q: 'discord', every: { kind: 'community' } },
  { q: 'courses', every: { kind: 'course' } },
  { q: 'apps', every: { kind: 'app' } },
  { q: 'expert advisor', every: { kind: 'app' }, top: ['Grid Guardian EA'] },
  { q: 'momentum bundle', bundles: ['Momentum Trader Bundle'] },
  { q: 'order flow bundle', bundles: ['Order Flow Complete'] },
  { q: 'mt4 bundle', bundles: ['MetaTrader Power Pack'] },

  // Platforms by name, abbreviation and phrase.
  { q: 'tv indicator', every: { kind: 'indicator', platform: 'tradingview' } },
  { q: 'pine script', every: { platform: 'tradingview' } },
  { q: 'tos', every: { platform: 'thinkorswim' } },
  { q: 'think or swim', every: { platform: 'thinkorswim' } },
  { q: 'ninja trader', every: { platform: 'ninjatrader' } },
  { q: 'nt8 footprint', top: ['Footprint Delta Bars'] },
  { q: 'metatrader 4 ea', top: ['Grid Guardian EA'], every: { kind: 'app', platform: 'mt4' } },
  { q: 'mt5 ea', top: ['Gold Scalper EA', 'Grid Guardian EA'] },
  { q: 'mt4 scanner', top: ['Currency Strength Scanner'] },
  { q: 'rsi mt4', top: ['Multi-Timeframe RSI Dashboard'] },
  { q: 'keltner mt5', top: ['Keltner Channel Pro'] },
  { q: 'ctrader', every: { platform: 'ctrader' } },
  { q: 'cbot', top: ['Trend Rider cBot'] },
  { q: 'tradestation', every: { platform: 'tradestation' } },
  { q: 'opening range breakout tradestation', top: ['Opening Range Breakout Strategy'] },
  { q: 'squeeze thinkorswim', top: ['TTM Squeeze Plus'] },
  { q: 'supertrend tradingview', top: ['Supertrend Ribbon'] },
  { q: 'volume profile ninjatrader', top: ['Volume Profile Sessions'] },
  { q: 'harmonic patterns mt4', top: ['Harmonic Pattern Finder'] },
  {
    q: 'futures indicator ninjatrader',
    every: { kind: 'indicator', platform: 'ninjatrader', asset: 'futures' },
  },

  // Asset classes.
  { q: 'crypto alerts', anyOf: ['Stablecoin Flow Alerts', 'Funding Rate Extremes'] },
  { q: 'options alerts', top: ['Unusual Options Activity Alerts', 'Earnings IV Crush Alerts'] },
  { q: 'forex scanner', top: ['Currency Strength Scanner'] },
  { q: 'forex community', top: ['Pip Hunters Lounge'] },
  { q: 'futures discord', top: ['Orderflow Pit Discord'] },
  { q: 'crypto discord', top: ['Compass Crew Discord'] },
  { q: 'options course', top: ['Selling Premium the Right Way'] },
  { q: 'crypto course', top: ['Crypto Swing Trading 101'] },
  { q: 'crypto scanner', top: ['Altcoin Breakout Scanner'] },
  { q: 'forex ea', top: ['Grid Guardian EA', 'Trade Copier Pro'] },
  { q: 'commodities', every: { asset: 'commodities' } },
  { q: 'indices', every: { asset: 'indices' } },
  { q: 'bitcoin', top: ['On-Chain Whale Tracker'], every: { asset: 'crypto' } },
  { q: 'gold', top: ['Gold Scalper EA'] },

  // Trading abbreviations.
  { q: 'smc', top: ['Smart Money Concepts Suite'] },
  { q: 'fvg', top: ['Smart Money Concepts Suite'] },
  { q: 'uoa', top: ['Unusual Options Activity Alerts'] },
  { q: 'gex', top: ['Gamma Exposure Levels'] },
  { q: 'iv crush', top: ['Earnings IV Crush Alerts'] },
  { q: 'dca bot', top: ['Compass DCA Bot'] },
  { q: 'orb strategy', top: ['Opening Range Breakout Strategy'] },
  { q: 'vwap', top: ['VWAP Reclaim Signals'] },

  // What the product does.
  { q: 'order flow course', top: ['Order Flow Foundations'] },
  { q: 'risk management course', top: ['Risk Management Bootcamp'] },
  { q: 'swing trading course', top: ['Swing Trading Setups'] },
  { q: 'backtesting app', top: ['ForgeTest Backtester'] },
  { q: 'trading journal', top: ['Edge Journal'] },
  { q: 'position size calculator', top: ['Position Size Calculator Pro'] },
  { q: 'market profile', top: ['Market Profile TPO'] },
  { q: 'london breakout', top: ['London Breakout Alerts'] },
  { q: 'small cap scanner', top: ['Small Cap Gap Scanner'] },
  { q: 'low float alerts', top: ['Low Float Runner Alerts'] },
  { q: 'level 2', top: ['Level 2 Spoofing Alerts'] },
  { q: 'supply and demand', top: ['Supply and Demand Zones'] },
  { q: 'liquidation heatmap', top: ['Liquidation Heatmap Levels'] },
  { q: 'funding rate alerts', top: ['Funding Rate Extremes'] },
  { q: 'covered calls', top: ['Covered Call Screener'] },
  { q: 'dark pool', top: ['Dark Pool Print Alerts'] },
  { q: 'day trading discord', top: ['Tape Readers Discord'] },
  { q: 'RSI Divergence Pro', top: ['RSI Divergence Pro'] },

  // Typos, one or several, in any word.
  { q: 'footprnt', didYouMean: 'footprint', top: ['Footprint Delta Bars'] },
  { q: 'suprtrend', didYouMean: 'supertrend', top: ['Supertrend Ribbon'] },
  { q: 'harmonc patern', didYouMean: 'harmonic pattern', top: ['Harmonic Pattern Finder'] },
  { q: 'ninjatrdr', didYouMean: 'ninjatrader', every: { platform: 'ninjatrader' } },
  {
    q: 'thinkorswm scaner',
    didYouMean: 'thinkorswim scanner',
    top: ['Unusual Volume Scanner', 'Covered Call Screener'],
  },
  { q: 'rsi divergnce', didYouMean: 'rsi divergence', top: ['RSI Divergence Pro'] },
  { q: 'crpyto scanner', didYouMean: 'crypto scanner', top: ['Altcoin Breakout Scanner'] },

  // Filters with words, and what an empty page offers instead.
  { q: 'breakout', params: { kind: 'scanner' }, top: ['Altcoin Breakout Scanner'] },
  { q: 'rsi discord', suggests: ['rsi', 'discord'] },
  { q: 'gamma', params: { category: 'courses' }, suggests: ['gamma'] },
];
