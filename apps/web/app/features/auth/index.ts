// The auth feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { sessionEnded } from './slice.ts';
// The payout screens' code field; the account page imports its section directly.
export { TwoFactorCodeField } from './two-factor.tsx';
