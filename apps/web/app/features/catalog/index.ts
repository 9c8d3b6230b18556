// The catalog feature's public entry: other features import this file only (ARCHITECTURE §2).
export { bundlePath, productPath } from './components.tsx';
