import {
  analyticsRoutes,
  apiErrorSchema,
  authRoutes,
  catalogRoutes,
  ordersRoutes,
} from '@tradeshelf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories/users.ts';
import { nextIp, useTestApp } from '../../test/harness.ts';
import { buildApp } from '../app.ts';
import { pageReads } from '../page-reads.ts';
import { inProcessCaller } from './web.ts';

/** Issue 13: PostgreSQL text cannot hold NUL; every way in answers 400 instead of 500. */

const t = useTestApp();
let token: string;
beforeAll(async () => {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  token = res.json().token as string;
});

function expectRefused(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, what).toBe(400);
  const error = apiErrorSchema.parse(JSON.parse(res.body));
  expect(error.code, what).toBe('validation_failed');
}

describe('a NUL character', () => {
  it('in a path parameter or query', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const url of [
      '/api/v1/purchases/buyer/%00',
      '/api/v1/purchase/session/a%00b',
      '/api/v1/products/details/search?id=%00x',
      '/api/v1/products/term/search?q=%00x',
      '/api/v1/bundles/details/search?id=x%00',
      '/api/v1/purchases/buyer/list?cursor=%00',
      '/api/v1/coupons/preview?code=%00&priceId=x',
    ]) {
      const res = await t.app.inject({ url, headers: auth, remoteAddress: nextIp() });
      expectRefused(res, url);
    }
  });

  it('in a JSON body, at any depth or in a key', async () => {
    const cases: Array<[string, unknown]> = [
      [catalogRoutes.validatePrerequisites.path, { productId: '\u0000' }],
      [authRoutes.login.path, { email: 'a\u0000@example.com', password: 'x' }],
      [
        analyticsRoutes.track.path,
        {
          events: [
            {
              type: 'page_view',
              anonymousId: 'anon-12345',
              path: '/x\u0000',
              occurredAt: new Date().toISOString(),
            },
          ],
        },
      ],
      [ordersRoutes.checkoutBundle.path, { ['bundle\u0000Id']: 'x' }],
    ];
    for (const [url, payload] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: payload as object,
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: nextIp(),
      });
      expectRefused(res, url);
    }
  });

  it('in a header the API reads', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: analyticsRoutes.track.path,
      payload: {
        events: [
          {
            type: 'page_view',
            anonymousId: 'anon-12345',
            path: '/x',
            occurredAt: new Date().toISOString(),
          },
        ],
      },
      headers: { 'user-agent': 'probe\u0000' },
      remoteAddress: nextIp(),
    });
    expectRefused(res, 'user-agent');
  });

  it('in a page URL: a small HTML 400, the SSR app is not called', async () => {
    let rendered = 0;
    const app = await buildApp(t.deps, {
      web: {
        clientDir: '/nonexistent',
        listener(_req, res) {
          rendered++;
          res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
        },
      },
    });
    try {
      for (const url of ['/search?q=%00', '/p/%00/x', '/v/a%00']) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      }
      expect(rendered).toBe(0);
      expect((await app.inject('/search?q=ok')).statusCode).toBe(200);
      expect(rendered).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('in what an SSR loader passes to an in-process read', async () => {
    const caller = inProcessCaller(() => t.app, pageReads);
    for (const [route, query] of [
      [catalogRoutes.search, { q: '\u0000x' }],
      [catalogRoutes.productDetails, { id: '\u0000' }],
      [catalogRoutes.vendorProfile, { vendorUrl: 'a\u0000' }],
    ] as const) {
      const failure = await caller.call(route, { query }, { ip: nextIp() }).then(
        () => null,
        (err: unknown) => err as { status?: number; body?: unknown },
      );
      expect(failure?.status, route.path).toBe(400);
      expect(apiErrorSchema.parse(failure?.body).code, route.path).toBe('validation_failed');
    }
  });
});
