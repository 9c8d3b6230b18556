// The TradingView module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { TRADINGVIEW_EVENT_TYPES } from './subscribers.ts';
export { productScripts } from './scripts.ts';
