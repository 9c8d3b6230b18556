import {
  buildPath,
  queryParams,
  type RequestOf,
  type ResponseOf,
  type RouteRef,
} from '@tradeshelf/contract/client';
import type { ApiError } from '@tradeshelf/contract';
import type { SessionStore } from './session.ts';

/** What a call rejects with when no answer arrived (offline, DNS, connection refused, aborted). */
export const NETWORK_ERROR: ApiError = {
  error: 'Network error. Check your connection and try again.',
  code: 'network',
};

/** What a bearer call rejects with when there is no usable session (nothing was sent). */
export const SIGNED_OUT_ERROR: ApiError = { error: 'Sign in to continue.', code: 'unauthorized' };

export function toApiError(err: unknown): ApiError {
  if (err && typeof err === 'object' && 'error' in err && 'code' in err) return err as ApiError;
  return NETWORK_ERROR;
}

type Fetch = typeof fetch;
type AnyRequest = { body?: unknown; query?: unknown; params?: unknown };

export interface CallOptions {
  /** Multipart body (uploads); replaces the JSON body. */
  formData?: FormData;
  signal?: AbortSignal;
  /**
   * Extra request headers (e.g. `Idempotency-Key`). They cannot replace the ones the client owns
   * (`authorization`, `accept`, `content-type`), and they are sent again on the retry after a 401.
   */
  headers?: Record<string, string>;
}

/**
 * One typed client for every contract route, called with `endpoints.<name>` (run-time metadata
 * only; requests and responses are typed from the route's schemas, which never ship to the browser). Never sends cookies (`credentials: 'omit'`). Sends the
 * bearer access token on every call except public (`none`) ones, the refresh token on `refresh`
 * ones, and on a 401 refreshes once (single-flight, shared with the session) and retries once.
 * Non-2xx answers reject with the server's `{ error, code, fields? }`.
 */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly session: SessionStore | null,
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
  ) {}

  async call<R extends RouteRef>(
    route: R,
    req: RequestOf<R>,
    options: CallOptions = {},
  ): Promise<ResponseOf<R>> {
    let token: string | null = null;
    if (route.auth === 'refresh') {
      token = this.session?.peek()?.refreshToken ?? null;
      if (!token) throw SIGNED_OUT_ERROR;
    } else if ((route.auth === 'bearer' || route.auth === 'optional') && this.session) {
      token = (await this.session.current())?.accessToken ?? null;
      if (!token && route.auth === 'bearer') throw SIGNED_OUT_ERROR;
    }
    let res = await this.send(route, req, token, options);
    if (res.status === 401 && token && route.auth !== 'refresh' && this.session) {
      // The token was refused (expired early, revoked or tampered). If another call has already
      // rotated it, retry with the new one; otherwise refresh once. Then retry once.
      const stored = this.session.peek();
      const next =
        stored && stored.accessToken !== token && this.session.isFresh(stored)
          ? stored
          : await this.session.refresh();
      if (!next) throw await this.errorOf(res);
      res = await this.send(route, req, next.accessToken, options);
      if (res.status === 401) {
        this.session.clear();
        throw await this.errorOf(res);
      }
    }
    if (!res.ok) throw await this.errorOf(res);
    // A file answer (a route that `produces` e.g. text/csv) is handed over as a Blob.
    if (route.produces) return (await res.blob()) as ResponseOf<R>;
    return (await this.parse(res)) as ResponseOf<R>;
  }

  /** POST /refresh_token: the refresh token goes in the body and as the bearer. */
  async refresh<R extends RouteRef>(
    route: R,
    userId: string,
    refreshToken: string,
  ): Promise<ResponseOf<R>> {
    const res = await this.send(
      route,
      { body: { user_id: userId, refresh_token: refreshToken } },
      refreshToken,
      {},
    );
    if (!res.ok) throw await this.errorOf(res);
    return (await this.parse(res)) as ResponseOf<R>;
  }

  /** A 2xx body; an empty one (204) is `{}`. */
  private async parse(res: Response): Promise<unknown> {
    const text = await res.text();
    if (!text) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw {
        error: 'The server sent an answer we could not read.',
        code: 'internal',
      } satisfies ApiError;
    }
  }

  private async send(
    route: RouteRef,
    req: AnyRequest,
    token: string | null,
    options: CallOptions,
  ): Promise<Response> {
    let url =
      this.baseUrl + buildPath(route.path, req.params as Record<string, string> | undefined);
    const qs = new URLSearchParams(queryParams(req.query)).toString();
    if (qs) url += `?${qs}`;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
    headers.accept = route.produces ? `${route.produces}, application/json` : 'application/json';
    delete headers.authorization;
    delete headers['content-type'];
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.formData) body = options.formData;
    else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    const init: RequestInit = {
      method: route.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      credentials: 'omit',
      ...(options.signal ? { signal: options.signal } : {}),
    };
    try {
      return await this.fetchImpl(url, init);
    } catch {
      throw NETWORK_ERROR;
    }
  }

  private async errorOf(res: Response): Promise<ApiError> {
    try {
      const body = (await res.json()) as Partial<ApiError>;
      if (typeof body.error === 'string' && typeof body.code === 'string') return body as ApiError;
    } catch {
      // fall through
    }
    return {
      error: `Request failed (${res.status}).`,
      code: res.status >= 500 ? 'internal' : 'bad_request',
    };
  }
}
