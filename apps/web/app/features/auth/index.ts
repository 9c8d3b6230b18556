// The auth feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { sessionEnded } from './slice.ts';
