/**
 * Writes `src/endpoints.ts` and the split tables beside it (`endpoints-vendor.ts`, `-account.ts`,
 * `-alerts.ts`, `-passkeys.ts`, `-tradingview.ts`, `-screens.ts`), the browser's zod-free copy of the route table (ADR 012), from `routes`: each
 * route's method, path, auth, success status and, where set, multipart and produces. Run
 * `npm run contract:endpoints` after changing a route; `endpoints.test.ts` fails while the files on
 * disk differ from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { routes } from '../src/index.ts';
import type { RouteDef } from '../src/route.ts';

export const command = 'npm run contract:endpoints';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** The files this writes, relative to `src/`. */
/**
 * Routes that only lazily loaded screens call get tables of their own, so the chunk every page loads
 * does not carry them: the vendor workspace; the account page's data and documents (ADR 060); the
 * alerts screens and webhook (ADR 059); passkeys (ADR 054); TradingView access (the product page's
 * checkout step takes it, not the whole of the next); the other signed-in screens and what no
 * browser calls (issue 27: they were ~0.7 KB of the shell). Each is picked by its paths, written once here as the
 * run-time test and as the type the compiler checks the entries with.
 */
const splits = [
  {
    file: 'endpoints-vendor.ts',
    constName: 'vendorEndpoints',
    typeName: 'VendorRouteName',
    doc: 'the vendor workspace (paths under `/api/v1/vendor/`)',
    pathType: '`/api/v1/vendor/${string}`',
    test: (p: string) => p.startsWith('/api/v1/vendor/'),
  },
  {
    file: 'endpoints-account.ts',
    constName: 'accountEndpoints',
    typeName: 'AccountRouteName',
    doc: "the account page's data and documents",
    pathType:
      "'/api/v1/account/export' | '/api/v1/account/delete' | '/api/v1/account/billing' | `${string}.pdf`",
    test: (p: string) =>
      p === '/api/v1/account/export' ||
      p === '/api/v1/account/delete' ||
      p === '/api/v1/account/billing' ||
      p.endsWith('.pdf'),
  },
  {
    file: 'endpoints-alerts.ts',
    constName: 'alertEndpoints',
    typeName: 'AlertsRouteName',
    doc: 'the alerts screens and the alert webhook',
    pathType: "'/api/v1/alerts' | `/api/v1/alerts/${string}` | `/api/v1/alert-hooks/${string}`",
    test: (p: string) =>
      p === '/api/v1/alerts' ||
      p.startsWith('/api/v1/alerts/') ||
      p.startsWith('/api/v1/alert-hooks/'),
  },
  {
    file: 'endpoints-passkeys.ts',
    constName: 'passkeyEndpoints',
    typeName: 'PasskeyRouteName',
    doc: 'passkeys: the account page and the log-in page load them with the WebAuthn library',
    pathType:
      "'/auth/passkey' | `/auth/passkey/${string}` | '/api/v1/account/passkeys' | `/api/v1/account/passkeys/${string}`",
    test: (p: string) =>
      p === '/auth/passkey' ||
      p.startsWith('/auth/passkey/') ||
      p === '/api/v1/account/passkeys' ||
      p.startsWith('/api/v1/account/passkeys/'),
  },
  {
    file: 'endpoints-tradingview.ts',
    constName: 'tradingviewEndpoints',
    typeName: 'TradingViewRouteName',
    doc: "TradingView access: the product page's checkout step and the library load them",
    pathType:
      "'/api/v1/user/tradingview' | `/api/v1/user/tradingview/${string}` | `/api/v1/tradingview/${string}`",
    test: (p: string) => /^\/api\/v1\/(user\/tradingview(\/|$)|tradingview\/)/.test(p),
  },
  {
    file: 'endpoints-screens.ts',
    constName: 'screenEndpoints',
    typeName: 'ScreenRouteName',
    doc: "signed-in screens loaded on demand (account settings and sessions, two-factor, the library's deliveries, courses, licences, Discord, the affiliate's pages, support, payouts set-up), and the routes no browser screen calls (the licence API apps call, the platform's terms, top vendors, a product picture by id, one payout)",
    pathType:
      "`/api/v1/account/${string}` | '/api/v1/two-factor' | `/api/v1/two-factor/${string}` | '/api/v1/licence' | `/api/v1/licence/${string}` | `/api/v1/user/affiliate/${string}` | `/api/v1/library/${string}` | `/api/v1/courses/${string}` | '/api/v1/user/courses' | `/api/v1/videos/${string}` | `/api/v1/attachments/${string}` | `/api/v1/payment/connect-account${string}` | '/api/v1/contact' | `/api/v1/discord/${string}` | '/api/v1/user/discord' | `/api/v1/communities/${string}` | `/api/v1/products/${string}/images` | '/api/v1/platform/terms' | '/api/v1/vendors/top'",
    test: (p: string) =>
      /^\/api\/v1\/(account\/|two-factor(\/|$)|licence(\/|$)|user\/affiliate\/|library\/|courses\/|user\/courses$|videos\/|attachments\/|payment\/connect-account|contact$|discord\/|user\/discord$|communities\/|products\/[^/]+\/images$|platform\/terms$|vendors\/top$)/.test(
        p,
      ),
  },
] as const;

export const files = ['endpoints.ts', ...splits.map((t) => t.file)] as const;
export type GeneratedFile = (typeof files)[number];

/** The split table a route belongs to (the first whose paths it has), or none: the main table. */
const splitOf = (p: string) => splits.find((t) => t.test(p));
export const isVendorPath = splits[0].test;

/** What a client needs of a route at run time: exactly the fields a `RouteRef` carries. */
export function endpointOf(r: RouteDef) {
  return {
    method: r.method,
    path: r.path,
    auth: r.auth,
    status: r.status,
    ...(r.multipart !== undefined ? { multipart: r.multipart } : {}),
    ...(r.produces !== undefined ? { produces: r.produces } : {}),
  };
}

const header = `// Generated by \`${command}\` from the route table (\`routes\`, index.ts). Do not edit:
// change the route and run the command again (endpoints.test.ts fails until it is run).`;

function table(entries: [string, RouteDef][]): string {
  return entries
    .map(([name, r]) => {
      const fields = Object.entries(endpointOf(r)).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
      return `  ${name}: { ${fields.join(', ')} },`;
    })
    .join('\n');
}

function sources(all: Record<string, RouteDef>): Record<GeneratedFile, string> {
  const entries = Object.entries(all);
  // A route's table: earlier splits win, so each type excludes the names of the ones before it.
  const typeOf = splits.map((t, i) => {
    const earlier = splits.slice(0, i).map((e) => e.typeName);
    const keys = earlier.length ? `Exclude<keyof Routes, ${earlier.join(' | ')}>` : 'keyof Routes';
    return `/** Routes of ${t.doc}: their entries live in \`${t.constName}\` (${t.file}). */
export type ${t.typeName} = {
  [K in ${keys}]: Routes[K]['path'] extends ${t.pathType} ? K : never;
}[${keys}];`;
  });
  const out = {
    'endpoints.ts': `${header}
import type { routes } from './index.ts';
import type { RouteRef } from './route.ts';

type Routes = typeof routes;

${typeOf.join('\n\n')}

/**
 * The run-time side of every other route for clients: method, path, auth, success status and
 * multipart or produces, keyed like \`routes\`, and no zod. Each entry is typed with its full route,
 * so \`api.call(endpoints.x, req)\` is checked against the route's request schemas and answers with
 * its response type; the compiler also checks each entry's literals against its route.
 */
export const endpoints: {
  readonly [K in Exclude<keyof Routes, ${splits.map((t) => t.typeName).join(' | ')}>]: RouteRef<Routes[K]>;
} = {
${table(entries.filter(([, r]) => !splitOf(r.path)))}
};
`,
  } as Record<GeneratedFile, string>;
  for (const t of splits)
    out[t.file] = `${header}
import type { routes } from './index.ts';
import type { ${t.typeName} } from './endpoints.ts';
import type { RouteRef } from './route.ts';

type Routes = typeof routes;

/** \`endpoints\` for ${t.doc} (see \`${t.typeName}\`), typed the same way. */
export const ${t.constName}: { readonly [K in ${t.typeName}]: RouteRef<Routes[K]> } = {
${table(entries.filter(([, r]) => splitOf(r.path) === t))}
};
`;
  return out;
}

/** The files as the generator writes them (formatted with the repository's Prettier settings). */
export async function generate(
  all: Record<string, RouteDef> = routes,
): Promise<Record<GeneratedFile, string>> {
  const out = sources(all);
  for (const name of files) {
    const filepath = path.join(src, name);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    out[name] = await prettier.format(out[name], { ...options, filepath });
  }
  return out;
}

/** What is on disk now, to compare with `generate()`. */
export function onDisk(): Record<GeneratedFile, string> {
  return Object.fromEntries(
    files.map((name) => [name, readFileSync(path.join(src, name), 'utf8')]),
  ) as Record<GeneratedFile, string>;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await generate();
  for (const name of files) writeFileSync(path.join(src, name), out[name]);
  console.warn(`wrote ${files.map((f) => `src/${f}`).join(', ')}`);
}
