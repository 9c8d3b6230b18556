// The tradingview feature's public entry: other features and routes import this file only, but for
// the product page, which imports `step.tsx` so its chunk carries none of the library's views.
export { useTradingViewStep } from './step.tsx';
export { TradingViewSection } from './components.tsx';
