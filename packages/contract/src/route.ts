import type { z } from 'zod';
import type { ApiKeyScope } from './constants/developers.ts';

/**
 * How a call authenticates: `none` (public, no bearer sent), `optional` (bearer sent when present),
 * `bearer` (access token required), `refresh` (the refresh token is the bearer).
 */
export type RouteAuth = 'none' | 'optional' | 'bearer' | 'refresh';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef<
  TBody extends z.ZodType | undefined = z.ZodType | undefined,
  TQuery extends z.ZodType | undefined = z.ZodType | undefined,
  TParams extends z.ZodType | undefined = z.ZodType | undefined,
  TRes extends z.ZodType = z.ZodType,
  TAuth extends RouteAuth = RouteAuth,
  TMethod extends HttpMethod = HttpMethod,
  TPath extends string = string,
  TStatus extends number = number,
> {
  method: TMethod;
  /** Path as the product fixed it (docs/product.md#calls); `{id}` marks a path parameter. */
  path: TPath;
  auth: TAuth;
  summary: string;
  /** Longer OpenAPI text (Markdown): how to call it, with client examples. */
  description?: string;
  tags: string[];
  status: TStatus;
  body?: TBody;
  query?: TQuery;
  params?: TParams;
  /** Request is multipart/form-data; `body` is not validated as JSON. */
  multipart?: boolean;
  /**
   * The success answer is a file of this media type (e.g. `text/csv`), not JSON: the handler returns
   * its text, and clients read it as a Blob. `response` then only types it.
   */
  produces?: string;
  /**
   * A vendor route an API key with this scope may call in place of a session (ADR 057). Without
   * it, a key is refused (403): keys never reach buyer or account routes.
   */
  apiKeyScope?: ApiKeyScope;
  response: TRes;
}

export function defineRoute<
  TBody extends z.ZodType | undefined = undefined,
  TQuery extends z.ZodType | undefined = undefined,
  TParams extends z.ZodType | undefined = undefined,
  TRes extends z.ZodType = z.ZodType,
  const TAuth extends RouteAuth = RouteAuth,
  const TMethod extends HttpMethod = HttpMethod,
  const TPath extends string = string,
  const TStatus extends number = number,
>(
  def: RouteDef<TBody, TQuery, TParams, TRes, TAuth, TMethod, TPath, TStatus>,
): RouteDef<TBody, TQuery, TParams, TRes, TAuth, TMethod, TPath, TStatus> {
  return def;
}

/** Type-level only: the key under which a `RouteRef` carries its route. Nothing exists at run time. */
declare const routeOfRef: unique symbol;

/**
 * What a client needs at run time to make a call (method, path, auth, success status, multipart),
 * carrying the full route, schemas and all, as a type only. Clients take these from `endpoints`
 * (`@tradeshelf/contract/client`) and get typed requests and responses without shipping zod. A full
 * `RouteDef` is a `RouteRef` too.
 */
export interface RouteRef<R extends RouteDef = RouteDef> {
  readonly method: R['method'];
  readonly path: R['path'];
  readonly auth: R['auth'];
  readonly status: R['status'];
  readonly multipart?: R['multipart'];
  readonly produces?: R['produces'];
  readonly [routeOfRef]?: R;
}

/** The full route behind a route or a route reference. */
export type RouteOf<R> = R extends RouteDef ? R : R extends RouteRef<infer D> ? D : never;

type Field<T> = [NonNullable<T>] extends [z.ZodType] ? z.input<NonNullable<T>> : undefined;
type Part<K extends string, T> = [Field<T>] extends [undefined]
  ? { [P in K]?: undefined }
  : { [P in K]: Field<T> };

/** What a caller passes: `body`, `query` and `params` exactly where the route defines them. */
export type RequestOf<R extends RouteRef> = Part<'body', RouteOf<R>['body']> &
  Part<'query', RouteOf<R>['query']> &
  Part<'params', RouteOf<R>['params']>;

export type ResponseOf<R> =
  RouteOf<R> extends { response: infer T extends z.ZodType } ? z.output<T> : never;

/** Fills `{name}` placeholders from params. */
/** A request's query as it travels: strings, with empty values (undefined, null, '') left out. */
export function queryParams(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null && v !== '') out[k] = String(v);
  }
  return out;
}

export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}
