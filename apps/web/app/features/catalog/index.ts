// The catalog feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { bundlePath, productPath } from '../../lib/paths.ts';
