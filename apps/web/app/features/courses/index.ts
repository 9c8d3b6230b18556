// The courses feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { coursePath } from '../../lib/paths.ts';
