import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestListener } from '@mjackson/node-fetch-server';
import { createRequestHandler } from 'react-router';
import type { FastifyInstance } from 'fastify';
import type { RequestListener } from 'node:http';
import type { ServerBuild } from 'react-router';
import { buildPath, type RouteDef } from '@tradeshelf/contract';
import { TtlCache } from './ttl-cache.ts';

/** Paths the API owns; everything else that is a GET or HEAD is a page for the SSR app. */
const API_PREFIXES = [
  '/api/',
  '/auth/',
  '/refresh_token',
  '/files/',
  '/docs',
  '/openapi.json',
  '/healthz',
  '/readyz',
  '/dev/',
  '/sandbox/',
  '/robots.txt',
  '/sitemap.xml',
  '/sitemaps/',
];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url === p || url.startsWith(p));
}

export interface WebApp {
  listener: RequestListener;
  clientDir: string;
}

/** What SSR loaders get: the API called in-process, through the same routes and schemas. */
export interface PageLoadContext {
  call(
    route: RouteDef,
    req: { body?: unknown; query?: unknown; params?: unknown },
  ): Promise<unknown>;
}

/** Calls a contract route through `app.inject`: no socket, same validation and serialisation. */
export function injectCaller(getApp: () => FastifyInstance): PageLoadContext {
  return {
    async call(route, req) {
      const res = await getApp().inject({
        method: route.method,
        url: buildPath(route.path, req.params as Record<string, string> | undefined),
        ...(req.query ? { query: req.query as Record<string, string> } : {}),
        ...(req.body !== undefined ? { payload: req.body as object } : {}),
      });
      const body: unknown = res.json();
      if (res.statusCode >= 400)
        throw Object.assign(new Error('api error'), { status: res.statusCode, body });
      return body;
    },
  };
}

interface CachedPage {
  storedAt: number;
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

/**
 * Loads the React Router server build produced by `npm run build`. Public pages render the same for
 * everyone (sessions live in the browser), and they say so with `Cache-Control: public, s-maxage`; like a
 * CDN in front of the app, a small in-process cache serves them again for `pageCacheSeconds`.
 */
export async function loadWebApp(
  buildDir: string,
  context?: PageLoadContext,
  options: { pageCacheSeconds?: number } = {},
): Promise<WebApp | null> {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) return null;
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, process.env.NODE_ENV ?? 'production');
  const ttl = options.pageCacheSeconds ?? 0;
  const pages = new TtlCache<CachedPage>(ttl * 1000, 1000);
  const loadContext = (context ? { api: context } : {}) as never;

  return {
    listener: createRequestListener(async (request) => {
      const cacheable =
        pages.enabled && request.method === 'GET' && !request.headers.has('authorization');
      if (!cacheable) return handle(request, loadContext);
      const hit = pages.get(request.url);
      if (hit) {
        // `Age`, as a shared cache sends it: how long ago this copy was rendered.
        const headers = new Headers(hit.headers);
        headers.set('age', String(Math.floor((Date.now() - hit.storedAt) / 1000)));
        return new Response(hit.body, { status: hit.status, headers });
      }
      const res = await handle(request, loadContext);
      const sMaxAge = /(?:^|,)\s*s-maxage=(\d+)/.exec(res.headers.get('cache-control') ?? '');
      if (
        res.status !== 200 ||
        !sMaxAge ||
        Number(sMaxAge[1]) < ttl ||
        res.headers.has('set-cookie')
      ) {
        return res;
      }
      const page = {
        storedAt: Date.now(),
        status: res.status,
        headers: [...res.headers],
        body: await res.arrayBuffer(),
      };
      pages.set(request.url, page);
      return new Response(page.body, { status: page.status, headers: page.headers });
    }),
    clientDir: path.join(buildDir, 'client'),
  };
}

/** Serves the built client assets; fingerprinted files under /assets are cached for a year. */
export async function registerWebAssets(app: FastifyInstance, web: WebApp): Promise<void> {
  await app.register(fastifyStatic, {
    root: web.clientDir,
    wildcard: false,
    index: false,
    setHeaders(reply, filePath) {
      const rel = path.relative(web.clientDir, filePath);
      void reply.header(
        'cache-control',
        rel.startsWith('assets' + path.sep)
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=3600',
      );
    },
  });
}
