import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  // The whole route manifest (18 routes, ~1 KB gzip, cached with the assets) instead of discovering
  // routes on navigation: no `/__manifest` round trip before a link's page loads, and no partial
  // manifest computed and inlined into every server-rendered page.
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
