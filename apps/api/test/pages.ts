import { pageReads } from '../src/page-reads.ts';
import { onContentChange } from '../src/platform/content-changes.ts';
import { inProcessCaller, loadWebApp } from '../src/platform/web.ts';
import { startTestApp, type TestApp } from './harness.ts';
import { ensureWebBuild } from './web-build.ts';

/**
 * A test app that serves the web app's pages too, with the page cache on and dropped on catalogue
 * changes as in production (ADR 040): a vendor's edit that did not reach the caches fails a test.
 */
export function startTestAppWithPages(pageCacheSeconds = 10): Promise<TestApp> {
  const buildDir = ensureWebBuild();
  return startTestApp(
    {},
    {
      web: (app, deps) =>
        loadWebApp(buildDir, inProcessCaller(app, pageReads), {
          pageCacheSeconds,
          onContentChange: (drop) => onContentChange(deps, drop),
        }),
    },
  );
}
