/**
 * `npm start`'s entry (and the image's, through `serve.ts`). Tracing starts first when it is
 * configured, so its hooks see every module the app then imports (docs/operations.md, Tracing).
 */
import { startTracing } from './platform/tracing.ts';

await startTracing('tradeshelf-web');
await import('./start-web.ts');
