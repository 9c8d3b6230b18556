// The alerts feature's public entry: other features and routes import this file only.
export const alertFeedPath = (productId: string) =>
  `/library/alerts/${encodeURIComponent(productId)}`;
export { HeldAlertFeeds } from './held.tsx';
