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

/**
 * React Router's Environment API build (future.v8_viteEnvironmentApi) sets the client's entry
 * signatures to `exports-only`, over ours; the product-page group needs `allow-extension` (below).
 */
function routeEntriesMayGrow(): Plugin {
  return {
    name: 'tradeshelf:route-entries-may-grow',
    enforce: 'post',
    configEnvironment(name) {
      if (name !== 'client') return;
      return { build: { rolldownOptions: { preserveEntrySignatures: 'allow-extension' } } };
    },
  };
}

/** Redux Toolkit and what it brings: loaded by every page, with the shell. */
const stateLibs =
  /(?<!recharts[\\/])node_modules[\\/](@reduxjs|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store)[\\/]/;
/** The pre-React-18 shim recharts imports (the affiliate chart's chunk), which react-redux does not use. */
const uSesShim = /use-sync-external-store[\\/](shim[\\/]|cjs[\\/]use-sync-external-store-shim)/;
/** Our modules under app/lib, app/components, app/shell, app/features, and app/store.ts. */
const appModule = /[\\/]app[\\/](lib|components|shell|features)[\\/]|[\\/]app[\\/]store\.ts$/;
/**
 * What stays out of the shell, with the pages that use it (ADR 025, ADR 038): signed-in pages' guard,
 * the username drawer (loaded when it shows), the header's signed-in links and the avatar (loaded with a
 * session: a first visit from search has none), the confirm step, upload control, screen shape, pager, owner proof, the buyer pages' panels and the
 * icons of signed-in screens (the kit, issue 28); whole features no public page shows (affiliates,
 * courses, deliverables, licences, support, TradingView, whose slices register when their code loads), but for
 * the light `index.ts` of the first three; the views of orders, Discord, reviews and membership; the checkout panel (product and
 * bundle pages); the search page's filters, result count and no-results helper; the bundle page's terms; the product page's "What you get"; alerts.
 * The product page takes only TradingView's checkout step (`tradingview/step.tsx`); its username field
 * (`tradingview/checkout.tsx`) loads for a product that delivers scripts (ADR 070).
 */
const notInShell = new RegExp(
  '[\\\\/]app[\\\\/](' +
    [
      'components/(require-auth|confirm-step|icons|upload-control|screen|list-pager|list-table|two-factor-field|email-field|address-field|avatar|owner-proof|event-history|nothing-yet|outcome-panel|titled-section)',
      'shell/(username-dialog|member-nav)',
      // Their light entries stay: what other features import, and the licence calls' actions the user
      // slice reduces (features/licences/actions.ts).
      'features/(affiliates|courses|licences)/(?!index\\.|actions\\.)[\\w-]+',
      'features/(deliverables|support|tradingview)/[\\w-]+',
      // The vendor workspace, in its area folders too (ADR 039).
      'features/workspace/([\\w-]+/)?[\\w-]+',
      'features/orders/(components|poll|receipt-pdf)',
      'features/discord/(api|components|poll|callback|hooks|slice)',
      'features/reviews/(components|hooks|form|own)',
      'features/membership/components',
      // The account page's two-factor set-up, passkeys and account controls (issue 33): only its pages
      // (and the log-in page's passkey button) use them.
      'features/auth/(two-factor|passkeys|passkeys-section)',
      'features/account/[\\w-]+',
      // Alerts (issue 31): the library's list and the feed page, none of it on a public page.
      'features/alerts/[\\w-]+',
      'features/catalog/(checkout|no-results|search-filters|bundle-terms|result-count|what-you-get)',
      'lib/(poll|download|bytes|save-file)',
    ]
      .join('|')
      .replaceAll('/', '[\\\\/]') +
    ')\\.',
);

const productPage =
  /[\\/]app[\\/]features[\\/](catalog[\\/]checkout|tradingview[\\/](step|api|slice))\.|[\\/]contract[\\/]src[\\/](endpoints-tradingview|rules[\\/]coupon)\./;

/**
 * Browser chunks: React and React Router in one; our shared code with Redux Toolkit in another
 * (`app`), route modules on their own. Left to itself the bundler cut the shared code into ~20 small
 * chunks by which routes use them, which gzip worse: a product page paid ~5 KB more for the same code.
 */
const clientChunks = {
  groups: [
    { name: 'router', test: /node_modules[\\/](react|react-router)[\\/]/, priority: 2 },
    // What the product page loads beyond the shell, in one chunk (the TradingView checkout's state too:
    // alone it was a chunk of 1 KB with its own imports). The vendor workspace shares some of
    // it (coupon and TradingView rules); left alone, the bundler cut it into six small
    // chunks by who shares what, and the product page paid ~0.6 KB more on the wire for the same code.
    { name: 'product-page', test: productPage, priority: 1, includeDependenciesRecursively: false },
    // The reviews' views and what only they bring (their constants): product and storefront pages
    // load them as the reviews near the screen (ADR 070), as one file rather than two (issue 27).
    {
      name: 'reviews-view',
      test: /[\\/]app[\\/]features[\\/]reviews[\\/](components|hooks)\.|[\\/]contract[\\/]src[\\/]constants[\\/]reviews\./,
      priority: 1,
      includeDependenciesRecursively: false,
    },
    {
      name: 'app',
      test: (id: string) =>
        (stateLibs.test(id) && !uSesShim.test(id)) || (appModule.test(id) && !notInShell.test(id)),
      priority: 1,
    },
  ],
};

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), zodStaysOnTheServer(), routeEntriesMayGrow()],
  // On a busy machine every build ended in a timings warning naming React Router's own plugin
  // (its virtual modules), which no setting of ours changes: `npm start` prints warnings we can act on.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          // Route modules keep their exports; a group that takes only matched modules needs leave to
          // add some (rolldown refuses `includeDependenciesRecursively: false` otherwise).
          preserveEntrySignatures: 'allow-extension',
          output: { codeSplitting: clientChunks },
        },
      },
    },
  },
  server: { proxy: Object.fromEntries(proxied.map((p) => [p, api])) },
});
