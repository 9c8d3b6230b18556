import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequestHandler, RouterContextProvider, type RouterContext } from 'react-router';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerBuild } from 'react-router';
import { buildPath, queryParams, type RouteDef } from '@tradeshelf/contract';
import type { z } from 'zod';
import {
  acceptedEncodings,
  compress,
  compressible,
  preferred,
  SlottedGzip,
  type Encoding,
} from './compression.ts';
import { newNonce, NONCE_LENGTH, pagePolicy } from './csp.ts';
import { databaseUnavailableCause } from '../db/unavailable.ts';
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
  // The Stripe sandbox's API (local and sandbox environments).
  '/v1/',
  '/robots.txt',
  '/sitemap.xml',
  '/sitemaps/',
];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url === p || url.startsWith(p));
}

/** What the app knows of a page request beyond its bytes (ADR 049). */
export interface PageRequest {
  /** The client's address as `req.ip` has it: TRUST_PROXY decides which hop that is. */
  clientIp: string;
  /** The configured public origin (`publicOrigin`): pages never take theirs from the Host header. */
  origin: string;
}

export interface WebApp {
  listener(req: IncomingMessage, res: ServerResponse, from: PageRequest): void | Promise<void>;
  clientDir: string;
}

type CallInput = { body?: unknown; query?: unknown; params?: unknown };

/**
 * The API called in-process, through the same routes and schemas, for the page request's client:
 * its per-address limits count the browser's address, not loopback.
 */
export interface PageLoadContext {
  call(route: RouteDef, req: CallInput, client: PageClient): Promise<unknown>;
}

/** What SSR loaders get (`PageApi` in apps/web/app/lib/loader-api.ts): calls on one client's behalf. */
interface PageApi {
  call(route: RouteDef, req: CallInput): Promise<unknown>;
}

const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The page request's client; a refusal over a limit leaves its wait here for the page's answer. */
export interface PageClient {
  ip: string;
  retryAfter?: number;
}

/** Keeps the longest wait an API refusal asked for (a page may make several calls). */
function noteRetryAfter(client: PageClient, value: string | string[] | number | undefined): void {
  const seconds = Number(Array.isArray(value) ? value[0] : value);
  if (Number.isFinite(seconds) && seconds > 0)
    client.retryAfter = Math.max(client.retryAfter ?? 0, Math.ceil(seconds));
}

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
    async call(route, req, client) {
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
          result = await fast.read(getApp().deps, input, null, client.ip);
        } catch (err) {
          if (err instanceof AppError) {
            noteRetryAfter(client, err.headers?.['retry-after']);
            throw apiError(err.status, err.toBody());
          }
          // The database gone mid-read: the page answers 503 (retry), not a 500 bug.
          if (databaseUnavailableCause(err))
            throw apiError(503, { error: 'unavailable', code: 'service_unavailable' });
          throw err;
        }
        // Writing JSON and parsing it is ~4× cheaper than zod's encode of a product page's data.
        return JSON.parse(fast.serialize(result) as string) as unknown;
      }
      const res = await getApp().inject({
        remoteAddress: client.ip,
        method: route.method,
        url: buildPath(route.path, req.params as Record<string, string> | undefined),
        ...(req.query ? { query: queryParams(req.query) } : {}),
        ...(req.body !== undefined ? { payload: req.body as object } : {}),
      });
      const body: unknown = res.json();
      if (res.statusCode >= 400) {
        noteRetryAfter(client, res.headers['retry-after']);
        throw apiError(res.statusCode, body);
      }
      return body;
    },
  };
}

/** `entry.server`'s hand-off (apps/web/app/lib/loader-api.ts): the document as one string. */
interface DocumentSink {
  html: string | null;
}

/** What the server build gets per request (`PageContext` in apps/web/app/lib/loader-api.ts). */
interface RequestContext {
  api?: PageApi;
  document: DocumentSink;
  /** This response's CSP nonce, for every inline script and style the page renders. */
  nonce: string;
  /** A built stylesheet's text by its URL, for the page to inline (ADR 025). */
  stylesheet: (href: string) => string | undefined;
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
  /** The body gzipped once, with the nonce's places left open (ADR 025); null when not worth it. */
  gzip: SlottedGzip | null;
}

/** The page's URL at the public origin: its canonical, Open Graph and JSON-LD URLs come from it. */
function urlOf(req: IncomingMessage, origin: string): string {
  return `${origin}${req.url ?? '/'}`;
}

/**
 * The Fetch request React Router wants, from Node's (what `@mjackson/node-fetch-server` does). No
 * abort signal wired to the socket: our loaders are short reads that do not watch it, and the extra
 * AbortController, listener and `setMaxListeners` per request cost more than a wasted render would.
 */
function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return new Request(urlOf(req, origin), { method: req.method ?? 'GET', headers });
}

/** A page from React Router's Response; the document itself may come from the sink instead. */
async function toPage(res: Response, sink: DocumentSink, client: PageClient): Promise<Page> {
  const headers: string[] = [];
  for (const [name, value] of res.headers) headers.push(name, value);
  // A body of its own (React Router's last-resort error page) wins over anything left in the sink.
  // A page the database could not serve: browsers and crawlers may come back shortly.
  if (res.status === 503) headers.push('retry-after', '5');
  // A loader over a per-address limit: the wait the limiter gave (a minute if none was said).
  if (res.status === 429) headers.push('retry-after', String(client.retryAfter ?? 60));
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

/** A page's headers (less its length), what this response adds, and the body's length. */
function headersFor(page: Page, extra: string[], length: number | null): string[] {
  const headers: string[] = [];
  for (let i = 0; i < page.headers.length; i += 2) {
    if (page.headers[i] !== 'content-length') headers.push(page.headers[i]!, page.headers[i + 1]!);
  }
  headers.push(...extra);
  if (length !== null) headers.push('content-length', String(length));
  return headers;
}

/** Compressed or not, a page may differ by `Accept-Encoding`: shared caches must key on it. */
const VARY = ['vary', 'Accept-Encoding'];

/** A page, compressed for this response when the client takes it and it is worth it. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  page: Page,
  extra: string[],
  accepted: ReadonlySet<Encoding>,
): void {
  const body = page.body;
  const encoding = preferred(accepted);
  if (
    !body ||
    !encoding ||
    req.method === 'HEAD' ||
    headerOf(page, 'content-encoding') !== undefined ||
    !compressible(headerOf(page, 'content-type'), body.byteLength)
  ) {
    res.writeHead(page.status, headersFor(page, [...extra, ...VARY], body?.byteLength ?? null));
    res.end(req.method === 'HEAD' ? undefined : (body ?? undefined));
    return;
  }
  const encoded = compress(body, encoding);
  res.writeHead(
    page.status,
    headersFor(page, [...extra, ...VARY, 'content-encoding', encoding], encoded.length),
  );
  res.end(encoded);
}

/** Where a page's body holds `nonce` (only in the attributes we rendered: it is fresh random). */
function offsetsOf(body: Uint8Array | null, nonce: string): number[] {
  if (!body) return [];
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const at: number[] = [];
  for (let i = buf.indexOf(nonce); i >= 0; i = buf.indexOf(nonce, i + NONCE_LENGTH)) at.push(i);
  return at;
}

/** A page to keep: its gzip is built once here, around the places its nonce sits. */
function toCached(page: Page, nonce: string): CachedPage {
  const nonceAt = offsetsOf(page.body, nonce);
  const gzip =
    page.body && compressible(headerOf(page, 'content-type'), page.body.byteLength)
      ? new SlottedGzip(page.body, nonceAt, NONCE_LENGTH)
      : null;
  return { ...page, storedAt: Date.now(), nonceAt, gzip };
}

/**
 * A cached page with a fresh nonce where the render's was. Gzip (what every browser takes) costs no
 * compression per hit: the stored stream gets the nonce in its open slots. Otherwise the body goes
 * out as slices of the cached copy around the new nonce, gathered into one write by `cork` (copying
 * ~60 KB per hit cost more), or, for a client that takes brotli only, compressed with it.
 */
function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  nonce: string,
  extra: string[],
  accepted: ReadonlySet<Encoding>,
): void {
  const body = page.body;
  if (!body || req.method === 'HEAD') return send(req, res, page, extra, accepted);
  const fresh = Buffer.from(nonce, 'latin1');
  if (page.gzip && accepted.has('gzip')) {
    const { chunks, length } = page.gzip.with(fresh);
    res.writeHead(
      page.status,
      headersFor(page, [...extra, ...VARY, 'content-encoding', 'gzip'], length),
    );
    res.cork();
    for (const chunk of chunks) res.write(chunk);
    res.end();
    return;
  }
  if (page.nonceAt.length === 0) return send(req, res, page, extra, accepted);
  const slices: Uint8Array[] = [];
  let from = 0;
  for (const at of page.nonceAt) {
    slices.push(body.subarray(from, at), fresh);
    from = at + NONCE_LENGTH;
  }
  slices.push(body.subarray(from));
  if (page.gzip && accepted.size > 0)
    return send(req, res, { ...page, body: Buffer.concat(slices) }, extra, accepted);
  res.writeHead(page.status, headersFor(page, [...extra, ...VARY], body.byteLength));
  res.cork();
  for (let i = 0; i < slices.length - 1; i++) res.write(slices[i]);
  // `end` uncorks: the slices leave in one writev.
  res.end(slices[slices.length - 1]);
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
  options: {
    pageCacheSeconds?: number;
    /** Subscribes the page cache to content changes: a change drops every cached page. */
    onContentChange?: (drop: () => void) => void;
    imgSrc?: readonly string[];
    mediaSrc?: readonly string[];
  } = {},
): Promise<WebApp | null> {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) return null;
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, process.env.NODE_ENV ?? 'production');
  // Loaders read the request context under the build's own key (future.v8_middleware).
  const pageContext = (build.entry.module as { pageContext?: RouterContext<RequestContext> })
    .pageContext;
  if (!pageContext) throw new Error(`${serverEntry}: entry.server exports no pageContext`);
  const ttl = options.pageCacheSeconds ?? 0;
  const pages = new TtlCache<CachedPage>(ttl * 1000, 1000);
  // Any page may show an edited product (its page, the storefront, home, search): drop them all. A
  // render that began before the change may hold old data: the generation keeps it out of the cache.
  let generation = 0;
  options.onContentChange?.(() => {
    generation++;
    pages.clear();
  });
  const policy = pagePolicy({ imgSrc: options.imgSrc ?? [], mediaSrc: options.mediaSrc ?? [] });
  const csp = (nonce: string) => ['content-security-policy', policy(nonce)];

  const clientDir = path.join(buildDir, 'client');
  // Built stylesheets never change while the server runs: read each once.
  const stylesheets = new Map<string, string | undefined>();
  const stylesheet = (href: string) => {
    if (!stylesheets.has(href)) {
      const file = path.join(clientDir, path.normalize(href));
      let text: string | undefined;
      if (/^\/assets\/[\w.-]+\.css$/.test(href) && file.startsWith(clientDir + path.sep)) {
        try {
          text = readFileSync(file, 'utf8');
          // Text that could close the element stays in its file, linked.
          if (/<\/style/i.test(text)) text = undefined;
        } catch {
          text = undefined;
        }
      }
      stylesheets.set(href, text);
    }
    return stylesheets.get(href);
  };

  const render = async (req: IncomingMessage, nonce: string, from: PageRequest): Promise<Page> => {
    try {
      // A fresh context per request: `entry.server` leaves the rendered document in its sink.
      const document: DocumentSink = { html: null };
      const client: PageClient = { ip: from.clientIp };
      const loadContext: RequestContext = context
        ? {
            api: { call: (route, input) => context.call(route, input, client) },
            document,
            nonce,
            stylesheet,
          }
        : { document, nonce, stylesheet };
      return await toPage(
        await handle(
          toRequest(req, from.origin),
          // Typed as `AppLoadContext` here: this compile does not see the web app's future flags.
          new RouterContextProvider(new Map([[pageContext, loadContext]])) as never,
        ),
        document,
        client,
      );
    } catch (err) {
      console.error(err);
      return internalError;
    }
  };

  return {
    async listener(req, res, from) {
      const nonce = newNonce();
      const accepted = acceptedEncodings(req.headers['accept-encoding']);
      const cacheable = pages.enabled && req.method === 'GET' && !req.headers.authorization;
      if (!cacheable) return send(req, res, await render(req, nonce, from), csp(nonce), accepted);
      // Pages carry the public origin (canonical URL, Open Graph, JSON-LD), never the Host a client
      // names: one copy per path and query.
      const key = urlOf(req, from.origin);
      const hit = pages.get(key);
      if (hit) {
        // `Age`, as a shared cache sends it: how long ago this copy was rendered.
        const age = String(Math.floor((Date.now() - hit.storedAt) / 1000));
        return sendCached(req, res, hit, nonce, [...csp(nonce), 'age', age], accepted);
      }
      const renderedIn = generation;
      const page = await render(req, nonce, from);
      const sMaxAge = /(?:^|,)\s*s-maxage=(\d+)/.exec(headerOf(page, 'cache-control') ?? '');
      if (
        page.status === 200 &&
        renderedIn === generation &&
        sMaxAge &&
        Number(sMaxAge[1]) >= ttl &&
        headerOf(page, 'set-cookie') === undefined
      ) {
        const cached = toCached(page, nonce);
        pages.set(key, cached);
        // This response goes out as the hits will: from the stored gzip when the client takes it.
        return sendCached(req, res, cached, nonce, csp(nonce), accepted);
      }
      send(req, res, page, csp(nonce), accepted);
    },
    clientDir,
  };
}

/** Hashed file names change with their content: a browser may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files kept under their own name (favicons, robots): an hour, then asked again. */
export const SHORT_LIVED = 'public, max-age=3600';

/**
 * Serves the built client assets. Fingerprinted files under /assets are immutable for a year; the
 * build wrote `.br` and `.gz` beside each text file (ADR 025), sent as they are to a client that
 * takes them, with `Vary: Accept-Encoding`.
 */
export async function registerWebAssets(app: FastifyInstance, web: WebApp): Promise<void> {
  await app.register(fastifyStatic, {
    root: web.clientDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Ours below; `send`'s own (max-age=0) would replace it.
    cacheControl: false,
    setHeaders(res, filePath) {
      const rel = path.relative(web.clientDir, filePath);
      res.setHeader('cache-control', rel.startsWith('assets' + path.sep) ? IMMUTABLE : SHORT_LIVED);
      // The same URL answers brotli, gzip or plain by `Accept-Encoding`.
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
}
