import { statusFor, type ApiError, type ErrorCode } from '@tradeshelf/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { databaseUnavailableCause } from '../db/unavailable.ts';
import { originOf } from './origin.ts';
import type { WebApp } from './web.ts';

/** Seconds a client is asked to wait before retrying a 503. */
const RETRY_AFTER_SECONDS = '5';

/** An expected outcome the client can act on: maps to a status and the contract's error shape. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return statusFor(this.code);
  }
  toBody(): ApiError {
    return this.fields
      ? { error: this.message, code: this.code, fields: this.fields }
      : { error: this.message, code: this.code };
  }
}

export const notFound = (what = 'Not found.') => new AppError('not_found', what);
export const unauthorized = (message = 'Sign in to continue.') =>
  new AppError('unauthorized', message);

export function registerErrorHandling(
  app: FastifyInstance,
  /** Renders pages: unknown GET/HEAD paths outside the API go to the SSR app. */
  pages?: { listener: WebApp['listener']; isApiPath(url: string): boolean },
): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      if (err.status === 503 && !reply.hasHeader('retry-after'))
        void reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(err.status).send(err.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key =
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
          err.validationContext ||
          'body';
        fields[key] ??= issue.message ?? 'Invalid value.';
      }
      const first = Object.values(fields)[0] ?? 'Invalid request.';
      return reply.status(400).send({ error: first, code: 'validation_failed', fields });
    }
    // Fastify's own client errors (bad JSON, body too large, wrong content type …).
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code: ErrorCode =
        status === 413
          ? 'payload_too_large'
          : status === 415
            ? 'unsupported_media_type'
            : status === 429
              ? 'rate_limited'
              : status === 404
                ? 'not_found'
                : 'bad_request';
      return reply.status(status).send({ error: clientMessage(err), code });
    }
    // The database unreachable or gone mid-request: the client may retry; no internals in the body.
    const unavailable = databaseUnavailableCause(err);
    if (unavailable) {
      req.log.warn({ cause: unavailable.message }, 'database unavailable');
      return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send({
        error: 'The service is briefly unavailable. Please try again in a few seconds.',
        code: 'service_unavailable',
      });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ error: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (pages && (req.method === 'GET' || req.method === 'HEAD') && !pages.isApiPath(req.url)) {
      reply.hijack();
      // A hijacked reply skips onSend hooks: the request id goes on here, as on every API answer.
      reply.raw.setHeader('x-request-id', req.id);
      await pages.listener(req.raw, reply.raw, { clientIp: req.ip, origin: originOf(req) });
      return;
    }
    return reply
      .status(404)
      .send({ error: `No route for ${req.method} ${req.url.split('?')[0]}.`, code: 'not_found' });
  });
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type.';
    default:
      return 'The request could not be processed.';
  }
}
