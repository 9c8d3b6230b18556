/**
 * The full contract (route table with its zod schemas) for server-only code: loaders. React Router
 * keeps `.server` modules out of the browser build; browser code takes `endpoints` and plain values
 * from `@tradeshelf/contract/client` instead.
 */
export { routes } from '@tradeshelf/contract';
