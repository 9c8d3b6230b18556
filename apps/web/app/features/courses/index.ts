// The courses feature's public entry: other features import this file only (ARCHITECTURE §2).
export { coursePath } from '../../lib/paths.ts';
