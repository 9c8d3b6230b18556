// The membership feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { useMemberPrice } from './hooks.ts';
