// The affiliate feature's public entry: other features import this file only (docs/architecture.md#boundaries).
// Light on purpose: the header imports it on every page; the dashboard's views stay with its route.
export const AFFILIATE_PATH = '/affiliate';
export const AFFILIATE_CONNECTED_PATH = '/affiliate/connected';
