// The auth feature's public entry: other features import this file only (ARCHITECTURE §2).
export { sessionEnded } from './slice.ts';
