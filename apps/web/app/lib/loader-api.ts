import {
  buildPath,
  queryParams,
  type RouteDef,
  type RequestOf,
  type ResponseOf,
} from '@tradeshelf/contract';
import { createContext, data, type RouterContextProvider } from 'react-router';

/** What the server gives loaders: the API called in-process (see apps/api/src/platform/web.ts). */
export interface PageApi {
  call(
    route: RouteDef,
    req: { body?: unknown; query?: unknown; params?: unknown },
  ): Promise<unknown>;
}

/**
 * Where `entry.server` leaves a rendered document for the server that asked for it (ADR 013): the
 * page is handed over as a string instead of through a Response body's web stream.
 */
export interface DocumentSink {
  html: string | null;
}

/**
 * What our Node server gives each page request (apps/api/src/platform/web.ts), read through the
 * router's context (future.v8_middleware); empty under the Vite dev server.
 */
export interface PageContext {
  api?: PageApi;
  /** Set per request by our Node server; absent under the Vite dev server. */
  document?: DocumentSink;
  /**
   * This response's Content-Security-Policy nonce (ADR 022), set per request by our Node server,
   * which sends the policy; absent under the Vite dev server.
   */
  nonce?: string;
  /** The text of a built stylesheet by URL, to inline it (ADR 025); absent under the dev server. */
  stylesheet?: (href: string) => string | undefined;
}

/** The key to {@link PageContext}; `entry.server` exports it so the server can set it. */
export const pageContext = createContext<PageContext>({});

/**
 * Calls the API from a loader: in-process under `npm start`, over HTTP to the same origin under the
 * Vite dev server. A 404 from the API becomes this page's 404, a 503 its 503.
 */
export async function loadFrom<R extends RouteDef>(
  context: Readonly<RouterContextProvider>,
  request: Request,
  route: R,
  req: RequestOf<R>,
): Promise<ResponseOf<R>> {
  try {
    const { api } = context.get(pageContext);
    if (api) return (await api.call(route, req)) as ResponseOf<R>;
    const url = new URL(
      buildPath(route.path, req.params as Record<string, string> | undefined),
      request.url,
    );
    for (const [k, v] of Object.entries(queryParams(req.query))) url.searchParams.set(k, v);
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok)
      throw Object.assign(new Error('api error'), {
        status: res.status,
        body: await res.json().catch(() => null),
      });
    return (await res.json()) as ResponseOf<R>;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404 || status === 400) throw data(null, { status: 404 });
    // The API could not reach its database: this page is briefly unavailable too, not broken.
    if (status === 503) throw data(null, { status: 503 });
    // Over a per-address limit (searching): so is this page, for this client.
    if (status === 429) throw data(null, { status: 429 });
    throw err;
  }
}
