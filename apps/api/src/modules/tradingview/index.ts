// The TradingView module's public entry (ARCHITECTURE §2): other modules import this file only.
export { TRADINGVIEW_EVENT_TYPES } from './subscribers.ts';
export { productScripts } from './scripts.ts';
