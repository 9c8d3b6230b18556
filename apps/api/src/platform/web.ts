import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestListener } from '@react-router/node';
import type { FastifyInstance } from 'fastify';
import type { RequestListener } from 'node:http';
import type { ServerBuild } from 'react-router';
import { buildPath, type RouteDef } from '@tradeshelf/contract';

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

/** Loads the React Router server build produced by `npm run build`. */
export async function loadWebApp(
  buildDir: string,
  context?: PageLoadContext,
): Promise<WebApp | null> {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) return null;
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  return {
    listener: createRequestListener({
      build,
      mode: process.env.NODE_ENV ?? 'production',
      ...(context ? { getLoadContext: () => ({ api: context }) as never } : {}),
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
