// The membership feature's public entry: other features import this file only (ARCHITECTURE §2).
export { useMemberPrice } from './hooks.ts';
