/**
 * `npm run worker`'s entry (jobs in their own process). Tracing starts first when it is
 * configured, so its hooks see every module the worker then imports (docs/operations.md, Tracing).
 */
import { startTracing } from './platform/tracing.ts';

await startTracing('tradeshelf-worker');
await import('./start-worker.ts');
