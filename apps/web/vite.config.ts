import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

// `npm run dev --workspace apps/web` serves pages on :5173 and sends API paths to `npm run dev` on :3000.
const api = 'http://127.0.0.1:3000';
const proxied = [
  '/auth',
  '/api',
  '/refresh_token',
  '/files',
  '/healthz',
  '/readyz',
  '/docs',
  '/openapi.json',
  '/dev/mail',
];

/**
 * zod stays on the server: browser code takes route metadata, constants and rules from
 * `@tradeshelf/contract/client` and schemas' types with `import type`. Fails the build if any zod
 * code reaches a browser chunk (it costs a product page ~31 KB gzip).
 */
function zodStaysOnTheServer(): Plugin {
  return {
    name: 'tradeshelf:zod-stays-on-the-server',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment.name !== 'client') return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const zod = Object.entries(chunk.modules).find(
          ([id, m]) => /[\\/]node_modules[\\/]zod[\\/]/.test(id) && m.renderedLength > 0,
        );
        if (zod)
          this.error(
            `zod reached the browser chunk ${chunk.fileName} (${zod[0]}). Import values from ` +
              `'@tradeshelf/contract/client' and types with 'import type' from '@tradeshelf/contract'.`,
          );
      }
    },
  };
}

/** Redux Toolkit and what it brings: loaded by every page, with the shell. */
const stateLibs =
  /node_modules[\\/](@reduxjs|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store)[\\/]/;
/** Our modules under app/lib, app/components, app/features, and app/store.ts. */
const appModule = /[\\/]app[\\/](lib|components|features)[\\/]|[\\/]app[\\/]store\.ts$/;
/**
 * Shared modules only some pages use stay with those pages: signed-in pages' guard, order views,
 * polling and the Discord library's views; the checkout panel and Markdown (product and bundle
 * pages), the no-results helper (search). Home and storefront then load ~17 KB (minified) less
 * (ADR 025).
 */
const notInShell =
  /[\\/]app[\\/](components[\\/]require-auth|features[\\/]orders[\\/](components|poll)|features[\\/]discord[\\/](components|poll|callback)|features[\\/]catalog[\\/](checkout|no-results)|lib[\\/](markdown|poll))\./;

/**
 * Browser chunks: React and React Router in one; our shared code with Redux Toolkit in another
 * (`app`), route modules on their own. Left to itself the bundler cut the shared code into ~20 small
 * chunks by which routes use them, which gzip worse: a product page paid ~5 KB more for the same code.
 */
const clientChunks = {
  groups: [
    { name: 'router', test: /node_modules[\\/](react|react-router)[\\/]/, priority: 2 },
    {
      name: 'app',
      test: (id: string) => stateLibs.test(id) || (appModule.test(id) && !notInShell.test(id)),
      priority: 1,
    },
  ],
};

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), zodStaysOnTheServer()],
  environments: {
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  server: { proxy: Object.fromEntries(proxied.map((p) => [p, api])) },
});
