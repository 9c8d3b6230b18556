import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestHandler } from 'react-router';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ServerBuild } from 'react-router';
import { buildPath, queryParams, type RouteDef } from '@tradeshelf/contract';
import type { z } from 'zod';
import { newNonce, NONCE_LENGTH, pagePolicy } from './csp.ts';
import { AppError } from './errors.ts';
import { nulAt, nulRefused } from './http.ts';
import { createResponseSerializerCompiler, verifyResponses } from './serializer.ts';
import type { PageRead } from './routes.ts';
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

const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;

function apiError(status: number, body: unknown): Error {
  return Object.assign(new Error('api error'), { status, body });
}

/**
 * Calls contract routes in process for SSR loaders (ADR 013, which replaces ADR 009's `app.inject`).
 * Routes in `reads` skip HTTP emulation: the input is parsed with the route's own schema (a failure
 * is a 400, as over HTTP), the service answers, and the answer is written by the route's own response
 * serialiser (ADR 017; zod checks it in tests and development) and read back, so a page gets exactly
 * the JSON the API sends; an `AppError` keeps its status. Any other route still goes through
 * `app.inject` and the whole Fastify pipeline.
 */
export function inProcessCaller(
  getApp: () => FastifyInstance,
  reads: readonly PageRead[] = [],
): PageLoadContext {
  const compile = createResponseSerializerCompiler({ verify: verifyResponses });
  // Each read with the serialiser its HTTP route answers with.
  const direct = new Map(
    reads.map((r) => {
      const { method, path, response } = r.route;
      const serialize = compile({ schema: response, method, url: path, httpStatus: '200' });
      return [routeKey(r.route), { ...r, serialize }];
    }),
  );
  return {
    async call(route, req) {
      // Looked up by method and path: the web build may carry its own copy of the contract.
      const fast = direct.get(routeKey(route));
      if (fast) {
        const def = fast.route;
        const parse = (schema: z.ZodType | undefined, value: unknown, where: string) => {
          if (!schema) return undefined;
          // The rule HTTP requests meet in `registerHttpGuards`.
          const nul = nulAt(value);
          if (nul !== null) throw apiError(400, nulRefused(nul).toBody());
          const parsed = schema.safeParse(value ?? {});
          if (!parsed.success)
            throw apiError(400, { error: `Invalid ${where}.`, code: 'validation_failed' });
          return parsed.data;
        };
        const input = {
          query: parse(def.query, queryParams(req.query), 'query'),
          params: parse(def.params, req.params, 'params'),
          body: def.body ? parse(def.body, req.body, 'body') : undefined,
        };
        let result: unknown;
        try {
          result = await fast.read(getApp().deps, input, null);
        } catch (err) {
          if (err instanceof AppError) throw apiError(err.status, err.toBody());
          throw err;
        }
        // Writing JSON and parsing it is ~4× cheaper than zod's encode of a product page's data.
        return JSON.parse(fast.serialize(result) as string) as unknown;
      }
      const res = await getApp().inject({
        method: route.method,
        url: buildPath(route.path, req.params as Record<string, string> | undefined),
        ...(req.query ? { query: queryParams(req.query) } : {}),
        ...(req.body !== undefined ? { payload: req.body as object } : {}),
      });
      const body: unknown = res.json();
      if (res.statusCode >= 400) throw apiError(res.statusCode, body);
      return body;
    },
  };
}

/** `entry.server`'s hand-off (apps/web/app/lib/loader-api.ts): the document as one string. */
interface DocumentSink {
  html: string | null;
}

/** What the server build gets per request (`AppLoadContext` in apps/web/app/lib/loader-api.ts). */
interface RequestContext {
  api?: PageLoadContext;
  document: DocumentSink;
  /** This response's CSP nonce, for every inline script and style the page renders. */
  nonce: string;
}

/** A rendered page held whole: our entry.server renders in one pass, so nothing is streamed. */
interface Page {
  status: number;
  /** Flat name/value pairs, as `writeHead` takes them. */
  headers: string[];
  body: Uint8Array | null;
}

interface CachedPage extends Page {
  storedAt: number;
  /** Byte offsets of the nonce the page was rendered with; each hit writes a fresh one there. */
  nonceAt: number[];
}

function urlOf(req: IncomingMessage): string {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https:' : 'http:';
  return `${protocol}//${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
}

/**
 * The Fetch request React Router wants, from Node's (what `@mjackson/node-fetch-server` does). No
 * abort signal wired to the socket: our loaders are short reads that do not watch it, and the extra
 * AbortController, listener and `setMaxListeners` per request cost more than a wasted render would.
 */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return new Request(urlOf(req), { method: req.method ?? 'GET', headers });
}

/** A page from React Router's Response; the document itself may come from the sink instead. */
async function toPage(res: Response, sink: DocumentSink): Promise<Page> {
  const headers: string[] = [];
  for (const [name, value] of res.headers) headers.push(name, value);
  // A body of its own (React Router's last-resort error page) wins over anything left in the sink.
  if (res.body === null && sink.html !== null)
    return { status: res.status, headers, body: Buffer.from(sink.html) };
  const body = res.body ? new Uint8Array(await res.arrayBuffer()) : null;
  return { status: res.status, headers, body };
}

/** The value of a (lower-case) header in a page's flat name/value list. */
function headerOf(page: Page, name: string): string | undefined {
  for (let i = 0; i < page.headers.length; i += 2) {
    if (page.headers[i] === name) return page.headers[i + 1];
  }
  return undefined;
}

/** A page's headers, what this response adds, and the body's length. */
function headersFor(page: Page, extra: string[]): string[] {
  const headers = [...page.headers, ...extra];
  if (page.body && headerOf(page, 'content-length') === undefined)
    headers.push('content-length', String(page.body.byteLength));
  return headers;
}

function send(req: IncomingMessage, res: ServerResponse, page: Page, extra: string[]): void {
  res.writeHead(page.status, headersFor(page, extra));
  res.end(req.method === 'HEAD' ? undefined : (page.body ?? undefined));
}

/** Where a page's body holds `nonce` (only in the attributes we rendered: it is fresh random). */
function offsetsOf(body: Uint8Array | null, nonce: string): number[] {
  if (!body) return [];
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const at: number[] = [];
  for (let i = buf.indexOf(nonce); i >= 0; i = buf.indexOf(nonce, i + NONCE_LENGTH)) at.push(i);
  return at;
}

/**
 * A cached page with a fresh nonce where the render's was: the body goes out as slices of the cached
 * copy around the new nonce, gathered into one write by `cork` (copying ~60 KB per hit cost more).
 */
function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  nonce: string,
  extra: string[],
): void {
  const body = page.body;
  if (!body || req.method === 'HEAD' || page.nonceAt.length === 0)
    return send(req, res, page, extra);
  res.writeHead(page.status, headersFor(page, extra));
  const fresh = Buffer.from(nonce, 'latin1');
  res.cork();
  let from = 0;
  for (const at of page.nonceAt) {
    res.write(body.subarray(from, at));
    res.write(fresh);
    from = at + NONCE_LENGTH;
  }
  // `end` uncorks: the slices leave in one writev.
  res.end(body.subarray(from));
}

const internalError: Page = {
  status: 500,
  headers: ['content-type', 'text/plain'],
  body: new TextEncoder().encode('Internal Server Error'),
};

/**
 * Loads the React Router server build produced by `npm run build`. Public pages render the same for
 * everyone (sessions live in the browser), and they say so with `Cache-Control: public, s-maxage`; like a
 * CDN in front of the app, a small in-process cache serves them again for `pageCacheSeconds`. Every
 * response has its own CSP nonce (ADR 022): a cached page gets a fresh one written over the one it
 * was rendered with.
 */
export async function loadWebApp(
  buildDir: string,
  context?: PageLoadContext,
  options: { pageCacheSeconds?: number; imgSrc?: readonly string[] } = {},
): Promise<WebApp | null> {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) return null;
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, process.env.NODE_ENV ?? 'production');
  const ttl = options.pageCacheSeconds ?? 0;
  const pages = new TtlCache<CachedPage>(ttl * 1000, 1000);
  const policy = pagePolicy({ imgSrc: options.imgSrc ?? [] });
  const csp = (nonce: string) => ['content-security-policy', policy(nonce)];

  const render = async (req: IncomingMessage, nonce: string): Promise<Page> => {
    try {
      // A fresh context per request: `entry.server` leaves the rendered document in its sink.
      const document: DocumentSink = { html: null };
      const loadContext: RequestContext = context
        ? { api: context, document, nonce }
        : { document, nonce };
      return await toPage(await handle(toRequest(req), loadContext as never), document);
    } catch (err) {
      console.error(err);
      return internalError;
    }
  };

  return {
    async listener(req, res) {
      const nonce = newNonce();
      const cacheable = pages.enabled && req.method === 'GET' && !req.headers.authorization;
      if (!cacheable) return send(req, res, await render(req, nonce), csp(nonce));
      // Pages carry their origin (canonical URL, Open Graph, JSON-LD): the key is the whole URL.
      const key = urlOf(req);
      const hit = pages.get(key);
      if (hit) {
        // `Age`, as a shared cache sends it: how long ago this copy was rendered.
        const age = String(Math.floor((Date.now() - hit.storedAt) / 1000));
        return sendCached(req, res, hit, nonce, [...csp(nonce), 'age', age]);
      }
      const page = await render(req, nonce);
      const sMaxAge = /(?:^|,)\s*s-maxage=(\d+)/.exec(headerOf(page, 'cache-control') ?? '');
      if (
        page.status === 200 &&
        sMaxAge &&
        Number(sMaxAge[1]) >= ttl &&
        headerOf(page, 'set-cookie') === undefined
      ) {
        pages.set(key, { ...page, storedAt: Date.now(), nonceAt: offsetsOf(page.body, nonce) });
      }
      send(req, res, page, csp(nonce));
    },
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
