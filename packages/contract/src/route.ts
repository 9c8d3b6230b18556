import type { z } from 'zod';

/**
 * How a call authenticates: `none` (public, no bearer sent), `optional` (bearer sent when present),
 * `bearer` (access token required), `refresh` (the refresh token is the bearer).
 */
export type RouteAuth = 'none' | 'optional' | 'bearer' | 'refresh';

export interface RouteDef<
  TBody extends z.ZodType | undefined = z.ZodType | undefined,
  TQuery extends z.ZodType | undefined = z.ZodType | undefined,
  TParams extends z.ZodType | undefined = z.ZodType | undefined,
  TRes extends z.ZodType = z.ZodType,
  TAuth extends RouteAuth = RouteAuth,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path as SPEC §7 writes it; `{id}` marks a path parameter. */
  path: string;
  auth: TAuth;
  summary: string;
  tags: string[];
  status: number;
  body?: TBody;
  query?: TQuery;
  params?: TParams;
  /** Request is multipart/form-data; `body` is not validated as JSON. */
  multipart?: boolean;
  response: TRes;
}

export function defineRoute<
  TBody extends z.ZodType | undefined = undefined,
  TQuery extends z.ZodType | undefined = undefined,
  TParams extends z.ZodType | undefined = undefined,
  TRes extends z.ZodType = z.ZodType,
  const TAuth extends RouteAuth = RouteAuth,
>(
  def: RouteDef<TBody, TQuery, TParams, TRes, TAuth>,
): RouteDef<TBody, TQuery, TParams, TRes, TAuth> {
  return def;
}

type Field<T> = [NonNullable<T>] extends [z.ZodType] ? z.input<NonNullable<T>> : undefined;
type Part<K extends string, T> = [Field<T>] extends [undefined]
  ? { [P in K]?: undefined }
  : { [P in K]: Field<T> };

/** What a caller passes: `body`, `query` and `params` exactly where the route defines them. */
export type RequestOf<R extends RouteDef> = Part<'body', R['body']> &
  Part<'query', R['query']> &
  Part<'params', R['params']>;

export type ResponseOf<R> = R extends { response: infer T extends z.ZodType } ? z.output<T> : never;

/** Fills `{name}` placeholders from params. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}
