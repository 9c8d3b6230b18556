import {
  API_KEY_PREFIX,
  apiErrorSchema,
  developersMessages,
  type RouteDef,
} from '@tradeshelf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from './errors.ts';
import type { AppDeps } from '../deps.ts';
import type { AccessClaims, Audience } from './tokens.ts';

/** Every route under this prefix belongs to the vendor workspace (issue 19). */
export const VENDOR_PREFIX = '/api/v1/vendor/';
const VENDOR_AUDIENCES: Audience[] = ['tradeshelf:api', 'tradeshelf:vendor'];

type In<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;

export interface HandlerContext<R extends RouteDef> {
  body: In<R['body']>;
  query: In<R['query']>;
  params: In<R['params']>;
  /** The verified access token's claims (`bearer`, and `optional` when a valid token came). */
  auth: R['auth'] extends 'bearer' ? AccessClaims : AccessClaims | null;
  /** The raw bearer token (for `refresh` routes, the refresh token). */
  bearer: string | null;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<R extends RouteDef> = (
  ctx: HandlerContext<R>,
) => Promise<z.input<R['response']>> | z.input<R['response']>;

export function bearerOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) return null;
  return token.trim();
}

/**
 * Registers one contract route: its schemas validate input and serialise output (and feed
 * OpenAPI); its `auth` decides how the bearer token is checked.
 */
export function registerRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: Handler<R>,
  options: {
    audiences?: Audience[];
    bodyLimit?: number;
    /** A kept-file upload: the upload deadlines of `platform/http.ts` replace the request one. */
    upload?: boolean;
  } = {},
): void {
  // The vendor area's routes also take the vendor-role endpoint's own token (docs/product.md#roles).
  const audiences =
    options.audiences ??
    (def.path.startsWith(VENDOR_PREFIX) ? VENDOR_AUDIENCES : (['tradeshelf:api'] as Audience[]));
  const url = def.path.replace(/\{(\w+)\}/g, ':$1');
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.upload ? { config: { upload: true } } : {}),
    schema: {
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      ...(def.auth === 'bearer' || def.auth === 'refresh' || def.auth === 'optional'
        ? {
            security: [
              { bearerAuth: [] },
              ...(def.apiKeyScope ? [{ apiKey: [def.apiKeyScope] }] : []),
            ],
          }
        : {}),
      ...(def.apiKeyScope ? { 'x-api-key-scope': def.apiKeyScope } : {}),
      ...(def.body && !def.multipart ? { body: def.body } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(def.multipart ? { consumes: ['multipart/form-data'] } : {}),
      // A file answer (`produces`) is sent as the handler's text, not serialised as JSON.
      response: {
        ...(def.produces ? {} : { [def.status]: def.response }),
        '4XX': apiErrorSchema,
        '5XX': apiErrorSchema,
      },
      ...(def.produces ? { produces: [def.produces, 'application/json'] } : {}),
    },
    handler: async (req, reply) => {
      const bearer = bearerOf(req);
      let auth: AccessClaims | null = null;
      if (def.auth === 'bearer' || def.auth === 'optional') {
        if (bearer?.startsWith(API_KEY_PREFIX)) {
          // A vendor's API key (ADR 057): only routes that name a scope take one.
          if (!def.apiKeyScope) throw new AppError('forbidden', developersMessages.keyNotHere);
          auth = await req.server.deps.apiKeys.authenticate(bearer, def.apiKeyScope, req.ip);
        } else if (bearer) auth = await req.server.deps.tokens.verify(bearer, audiences);
        if (def.auth === 'bearer' && !auth) {
          throw new AppError(
            bearer ? 'invalid_token' : 'unauthorized',
            bearer ? 'Your session has expired. Sign in again.' : 'Sign in to continue.',
          );
        }
      }
      let result;
      try {
        result = await handler({
          body: req.body as never,
          query: req.query as never,
          params: req.params as never,
          auth: auth as never,
          bearer,
          req,
          reply,
        });
      } catch (err) {
        // Answered before the body ended (a slow upload's 408, `platform/http.ts`), which was then
        // cut: the failure is that cut's, and the request has its answer.
        if (reply.sent && !req.raw.complete) return undefined;
        throw err;
      }
      if (def.produces && !reply.hasHeader('content-type')) void reply.type(def.produces);
      return reply.status(def.status).send(result as never);
    },
  });
}

type ReadInput<R extends RouteDef> = {
  query: In<R['query']>;
  params: In<R['params']>;
  body: In<R['body']>;
};

/**
 * A public, read-only route written once (ADR 013): `registerRead` serves it over HTTP, and SSR loaders
 * call `read` in process with input parsed by the same schemas. `userId` is the signed-in user, if any;
 * `clientIp` the caller's address (`req.ip`; for a page, its browser's), for per-address limits.
 */
export interface PageRead {
  route: RouteDef;
  read(
    deps: AppDeps,
    input: { query: unknown; params: unknown; body: unknown },
    userId: string | null,
    clientIp: string,
  ): Promise<unknown>;
}

/** Types a read by its route: the input is the route's parsed input, the answer its response. */
export function pageRead<R extends RouteDef>(
  route: R,
  read: (
    deps: AppDeps,
    input: ReadInput<R>,
    userId: string | null,
    clientIp: string,
  ) => Promise<z.input<R['response']>>,
): PageRead {
  return { route, read: read as PageRead['read'] };
}

/** Serves a read over HTTP, as `registerRoute` does any route. */
export function registerRead(app: FastifyInstance, read: PageRead): void {
  registerRoute(
    app,
    read.route,
    ({ query, params, body, auth, req }) =>
      read.read(app.deps, { query, params, body }, auth?.sub ?? null, req.ip) as never,
  );
}
