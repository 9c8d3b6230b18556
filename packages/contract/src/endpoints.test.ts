import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  command,
  endpointOf,
  files,
  generate,
  isVendorPath,
  onDisk,
} from '../scripts/endpoints.ts';
import { analyticsRoutes } from './analytics.ts';
import { developersRoutes } from './developers.ts';
import { alertsRoutes } from './alerts.ts';
import { authRoutes } from './auth.ts';
import { accountRoutes } from './account.ts';
import { accountDataRoutes } from './account-data.ts';
import { passkeyRoutes } from './passkeys.ts';
import { invoicesRoutes } from './invoices.ts';
import { catalogRoutes } from './catalog.ts';
import { endpoints } from './endpoints.ts';
import { vendorEndpoints } from './endpoints-vendor.ts';
import { accountEndpoints } from './endpoints-account.ts';
import { alertEndpoints } from './endpoints-alerts.ts';
import { passkeyEndpoints } from './endpoints-passkeys.ts';
import { screenEndpoints } from './endpoints-screens.ts';
import { tradingviewEndpoints } from './endpoints-tradingview.ts';
import { routes } from './index.ts';
import { ordersRoutes } from './orders.ts';
import { membershipRoutes } from './membership.ts';
import { discordRoutes } from './discord.ts';
import { coursesRoutes } from './courses.ts';
import { licencesRoutes } from './licences.ts';
import { deliverablesRoutes } from './deliverables.ts';
import { affiliatesRoutes } from './affiliates.ts';
import { reviewsRoutes } from './reviews.ts';
import { supportRoutes } from './support.ts';
import { tradingviewRoutes } from './tradingview.ts';
import { usersRoutes } from './users.ts';
import { vendorSalesRoutes } from './vendor-sales.ts';
import { vendorCouponsRoutes } from './vendor-coupons.ts';
import { vendorAnalyticsRoutes } from './vendor-analytics.ts';
import { vendorProductsRoutes } from './vendor-products.ts';
import { vendorBundlesRoutes } from './vendor-bundles.ts';
import { vendorCoursesRoutes } from './vendor-courses.ts';
import { vendorLicencesRoutes } from './vendor-licences.ts';
import { vendorStorefrontRoutes } from './vendor-storefront.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Modules `file` loads at run time (type-only imports and exports are erased, so skipped). */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const m of source.matchAll(
    /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'/gm,
  )) {
    if (m[2]) continue;
    specifiers.push(m[4]!);
  }
  for (const m of source.matchAll(/^\s*import\s+'([^']+)'/gm)) specifiers.push(m[1]!);
  return specifiers;
}

describe('endpoints: the run-time route metadata clients use', () => {
  it(`is what \`${command}\` writes from the route table (run it after changing a route)`, async () => {
    const generated = await generate();
    const disk = onDisk();
    for (const name of files)
      expect(disk[name], `src/${name} is out of date: run \`${command}\``).toBe(generated[name]);
  });

  it('matches the route table exactly: one entry per route, same method, path, auth, status, multipart, produces', () => {
    const expected = Object.fromEntries(
      Object.entries(routes).map(([name, r]) => [
        name,
        {
          method: r.method,
          path: r.path,
          auth: r.auth,
          status: r.status,
          ...('multipart' in r && r.multipart !== undefined ? { multipart: r.multipart } : {}),
          ...('produces' in r && r.produces !== undefined ? { produces: r.produces } : {}),
        },
      ]),
    );
    expect({
      ...endpoints,
      ...vendorEndpoints,
      ...accountEndpoints,
      ...alertEndpoints,
      ...passkeyEndpoints,
      ...screenEndpoints,
      ...tradingviewEndpoints,
    }).toStrictEqual(expected);
    // The split is by path: the workspace's table holds its routes and nothing else.
    for (const e of Object.values(vendorEndpoints)) expect(e.path).toMatch(/^\/api\/v1\/vendor\//);
    for (const e of Object.values(endpoints)) expect(e.path).not.toMatch(/^\/api\/v1\/vendor\//);
    // And the alerts' table (issue 31) only theirs, out of the chunk every page loads.
    for (const e of Object.values(alertEndpoints))
      expect(e.path).toMatch(/^\/api\/v1\/(alerts$|alerts\/|alert-hooks\/)/);
    for (const e of Object.values(endpoints)) expect(e.path).not.toMatch(/^\/api\/v1\/alert/);
    // Passkeys too: only the screens that load the WebAuthn library call them.
    for (const e of Object.values(passkeyEndpoints))
      expect(e.path).toMatch(/^(\/auth\/passkey|\/api\/v1\/account\/passkeys)(\/|$)/);
    for (const e of Object.values(endpoints)) expect(e.path).not.toMatch(/passkey/);
    // The on-demand screens' routes and those no screen calls stay out of the shell's table: what is
    // left is what public pages, the shell and its always-loaded slices call (issue 27).
    for (const e of Object.values(screenEndpoints))
      expect(e.path).toMatch(
        /^\/api\/v1\/(account|two-factor|licence|user\/affiliate|library|courses|user\/courses|videos|attachments|payment\/connect-account|contact|discord|user\/discord|communities|products|platform|vendors)\b/,
      );
    for (const e of Object.values(endpoints))
      expect(e.path).not.toMatch(
        /^\/api\/v1\/(account|two-factor|licence|user\/affiliate|library|courses|videos|attachments|tradingview|contact|discord|communities|user\/discord)\b/,
      );
    expect(Object.keys(endpoints).length).toBeLessThanOrEqual(50);
  });

  it('the generator notices a changed route: its output differs from the files on disk', async () => {
    const changed = { ...routes, login: { ...routes.login, status: 201 } };
    const out = await generate(changed);
    expect(out['endpoints.ts']).not.toBe(onDisk()['endpoints.ts']);
    expect(out['endpoints.ts']).toContain(
      "login: { method: 'POST', path: '/auth/login', auth: 'none', status: 201 }",
    );
    expect(endpointOf(routes.imageUpload)).toMatchObject({ multipart: true });
    expect(isVendorPath(routes.vendorSales.path)).toBe(true);
  });

  it('route names are unique across domains (the route table would silently drop a duplicate)', () => {
    const tables = [
      authRoutes,
      usersRoutes,
      accountRoutes,
      accountDataRoutes,
      passkeyRoutes,
      invoicesRoutes,
      analyticsRoutes,
      catalogRoutes,
      ordersRoutes,
      supportRoutes,
      membershipRoutes,
      discordRoutes,
      coursesRoutes,
      licencesRoutes,
      deliverablesRoutes,
      tradingviewRoutes,
      affiliatesRoutes,
      reviewsRoutes,
      vendorSalesRoutes,
      vendorCouponsRoutes,
      vendorAnalyticsRoutes,
      vendorProductsRoutes,
      vendorBundlesRoutes,
      vendorCoursesRoutes,
      vendorLicencesRoutes,
      vendorStorefrontRoutes,
      developersRoutes,
      alertsRoutes,
    ];
    const names = tables.flatMap((t) => Object.keys(t));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(routes)).toHaveLength(names.length);
  });

  it('@tradeshelf/contract/client loads only zod-free modules of this package', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of runtimeImports(file)) {
        expect(spec, `${path.relative(here, file)} imports ${spec} at run time`).toMatch(
          /^\.\.?\//,
        );
        visit(path.resolve(path.dirname(file), spec));
      }
    };
    visit(path.join(here, 'client.ts'));
    for (const schemas of [
      'index',
      'errors',
      'common',
      'auth',
      'users',
      'catalog',
      'orders',
      'support',
      'membership',
      'reviews',
    ])
      expect(seen).not.toContain(path.join(here, `${schemas}.ts`));
    expect(seen.size).toBeGreaterThan(10);
  });
});
