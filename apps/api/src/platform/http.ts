import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError, ErrorCode } from '@tradeshelf/contract';
import type {
  FastifyError,
  FastifyHttpOptions,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { AppError } from './errors.ts';

/** Slower than this (~16 kbit/s), an upload is cut: it would hold a slot for the whole upload deadline. */
export const UPLOAD_MIN_BYTES_PER_SECOND = 2048;

/**
 * HTTP input hardening (ADR 020): how long a client may take, the contract's error shape for what
 * Fastify and Node answer before any route runs, NUL characters refused at the edge, and a close
 * that cannot be held open by a stalled request.
 */

export interface HttpLimits {
  /**
   * Time to receive one whole request, headers and body; for a kept-file upload, the longest its
   * body may pause.
   */
  requestTimeoutSeconds: number;
  /** Time to receive one whole kept-file upload (a route whose config says `upload`, ADR 048). */
  uploadTimeoutSeconds: number;
  /** On close, how long in-flight requests may run before their connections are cut. */
  shutdownGraceSeconds: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A kept-file upload (lesson video or attachment, licence build): the body may take up to
     * `uploadTimeoutSeconds` in all, pausing no longer than `requestTimeoutSeconds` at a time.
     */
    upload?: boolean;
  }
}

const body = (code: ErrorCode, error: string): ApiError => ({ error, code });
const tooSlow = () => body('request_timeout', 'The request took too long to arrive.');

/** Fastify's server options for these limits; spread into `Fastify({ … })`. */
export function httpServerOptions(limits: HttpLimits): FastifyHttpOptions<Server> {
  const requestTimeout = limits.requestTimeoutSeconds * 1000;
  // Node has one request deadline per server: the longest, an upload's. Every other request gets
  // the short one from `registerHttpGuards`.
  const longest = Math.max(limits.uploadTimeoutSeconds * 1000, requestTimeout);
  return {
    requestTimeout: longest,
    // A socket with no bytes moving either way (a client that stopped reading, say) is closed.
    connectionTimeout: requestTimeout * 2,
    // Our own 503 while closing carries the contract's shape (see `registerHttpGuards`).
    return503OnClosing: false,
    http: {
      headersTimeout: Math.min(requestTimeout, 10_000),
      requestTimeout: longest,
      // Node looks for expired requests this often (default 30 s, which would double the timeout).
      connectionsCheckingInterval: Math.min(requestTimeout / 2, 5_000),
    },
    frameworkErrors,
    clientErrorHandler,
  };
}

/** Router errors raised before any route or hook runs. */
function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply
      .status(400)
      .send(body('bad_request', 'The URL is not valid: check its percent-encoding.'));
  } else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send(body('uri_too_long', 'A part of the URL is too long.'));
  } else {
    void reply
      .status(500)
      .send(body('internal', 'Something went wrong on our side. Please try again.'));
  }
}

/**
 * Node's HTTP parser errors (oversized headers, garbage, timeouts) never reach Fastify's routing:
 * the answer is written on the socket here. As Node does, only when no response has started.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, payload] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, tooSlow()]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, body('headers_too_large', 'The request headers or URL are too large.')]
        : [400, body('bad_request', 'The request is not valid HTTP.')];
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const json = JSON.stringify(payload);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    () => socket.destroy(),
  );
}

/** The dotted path of the first string or key holding a NUL, if any; walks without recursion. */
export function nulAt(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return path || 'value';
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (k.includes('\0')) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

/** PostgreSQL text cannot hold NUL (it answers "invalid byte sequence"): refused as bad input. */
export function nulRefused(field: string): AppError {
  const message = 'Text may not contain NUL (\\u0000) characters.';
  return new AppError('validation_failed', message, { [field]: message });
}

const BAD_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>Bad request</h1>';

export function registerHttpGuards(
  app: FastifyInstance,
  limits: HttpLimits,
  /** Given when pages are served: a page URL with a NUL gets a small HTML 400, not JSON. */
  pages?: { isApiPath(url: string): boolean },
): void {
  let closing = false;
  let cut: NodeJS.Timeout | undefined;

  // A callback hook, not async: it runs on every request, pages and `/healthz` included.
  app.addHook('onRequest', (req, reply, done) => {
    if (closing) {
      void reply
        .status(503)
        .header('connection', 'close')
        .header('retry-after', '1')
        .send(body('service_unavailable', 'The server is restarting. Try again.'));
      return;
    }
    // Only `%00` decodes to NUL in a path or query; Node's parser refuses raw NULs.
    const field = req.url.includes('%00')
      ? (nulAt(req.params) ?? nulAt(req.query) ?? 'path')
      : nulAt(req.headers);
    if (field === null) return done();
    if (pages && !pages.isApiPath(req.url) && (req.method === 'GET' || req.method === 'HEAD')) {
      void reply.status(400).type('text/html; charset=utf-8').send(BAD_PAGE);
      return;
    }
    done(nulRefused(field));
  });

  const windowBytes = UPLOAD_MIN_BYTES_PER_SECOND * limits.requestTimeoutSeconds;
  // The short deadline Node no longer keeps (see `httpServerOptions`): a body must have arrived
  // within it, or, on an upload route, must never pause for that long.
  const short = limits.requestTimeoutSeconds * 1000;
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    const bodyless =
      raw.headers['transfer-encoding'] === undefined &&
      !(Number(raw.headers['content-length']) > 0);
    if (raw.complete || bodyless) return done();
    let timer: NodeJS.Timeout;
    if (req.routeOptions.config.upload === true) {
      const socket = raw.socket;
      // Each window of `short` must bring UPLOAD_MIN_BYTES_PER_SECOND for its length: a byte now
      // and then would otherwise hold an upload slot for the whole upload deadline.
      let read = socket.bytesRead;
      let windowStart = Date.now();
      timer = setInterval(() => {
        if (raw.complete) return clearInterval(timer);
        // A pause while we are not reading (storage is slow, say) is not the client's.
        if (raw.readableFlowing !== true) {
          read = socket.bytesRead;
          windowStart = Date.now();
        } else if (Date.now() - windowStart >= short) {
          if (socket.bytesRead - read < windowBytes) {
            clearInterval(timer);
            timedOut(req, reply);
          } else {
            read = socket.bytesRead;
            windowStart = Date.now();
          }
        }
      }, short / 4).unref();
    } else {
      timer = setTimeout(() => timedOut(req, reply), short).unref();
    }
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });

  app.addHook('preValidation', (req, _reply, done) => {
    const field =
      typeof req.body === 'object' || typeof req.body === 'string' ? nulAt(req.body) : null;
    done(field === null ? undefined : nulRefused(field === 'value' ? 'body' : field));
  });

  // An answer before the body's end (an upload refused, too large …) closes the connection: the
  // rest of the body is not parsed, and the next request could not be told from it (ADR 048).
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.raw.complete === false) {
      void reply.header('connection', 'close');
      lingerOnClose(req.raw);
    }
    done(null, payload);
  });

  // Node's close waits for every in-flight request; one stalled upload would hold it open.
  app.addHook('preClose', async () => {
    closing = true;
    if (app.server.listening)
      cut = setTimeout(
        () => app.server.closeAllConnections(),
        limits.shutdownGraceSeconds * 1000,
      ).unref();
  });
  app.addHook('onClose', async () => clearTimeout(cut));
}

/**
 * A body that did not arrive in time: 408 (`Connection: close` comes from the `onSend` hook), then the
 * request is cut rather than drained. Whatever still reads the body (an upload, the JSON parser) sees
 * it end early and stops, so nothing is stored or run after the 408, and an upload's slot is freed.
 */
function timedOut(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  if (raw.complete || raw.destroyed) return;
  if (reply.sent || reply.raw.headersSent) {
    raw.destroy();
    return;
  }
  reply.raw.once('finish', () => raw.destroy());
  void reply.status(408).send(tooSlow());
}

/** How long, and how much of a refused body, is read and dropped after the answer. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Closes like a lingering close: after the answer, our side ends (FIN) and what the client is still
 * sending is dropped for a moment before the socket goes. Closed at once with unread bytes, the
 * kernel would reset the connection, and a client still sending could lose the answer (the 413, 429 or
 * 503 it should act on) to the reset.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  // Node calls this once the answer is written, for a response with `Connection: close`.
  socket.destroySoon = function lingering(this: Socket) {
    this.end();
    let dropped = 0;
    const cut = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('close', () => clearTimeout(cut));
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) this.destroy();
    });
    req.resume();
  };
}
