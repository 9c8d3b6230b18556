import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // WEB_BUILD_DIR: a test's build elsewhere, leaving the one other tests serve in place.
  buildDirectory: process.env.WEB_BUILD_DIR ?? 'build',
  ssr: true,
  // The whole route manifest (18 routes, ~1 KB gzip, cached with the assets) instead of discovering
  // routes on navigation: no `/__manifest` round trip before a link's page loads, and no partial
  // manifest computed and inlined into every server-rendered page.
  routeDiscovery: { mode: 'initial' },
  // React Router 8's behaviour now (and no warnings on every build): the server hands loaders their
  // context as a `RouterContextProvider` (lib/loader-api.ts), route modules' client code splits,
  // the build runs on Vite's Environment API, loaders get the request as sent, and data requests
  // keep a URL's trailing slash.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
