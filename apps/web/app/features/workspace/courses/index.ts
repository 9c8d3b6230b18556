// What other workspace features use of the course builder's folder.
export { formatBytes } from './outline.ts';
