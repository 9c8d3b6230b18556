import { Socket } from 'node:net';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Link,
} from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { loadDotEnv } from '../config.ts';

/**
 * OpenTelemetry tracing behind the standard switch (issue 32): with `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, the entries (`main.ts`, `worker.ts`) start the SDK
 * before importing the app, so its instrumentations wrap `http`, `pg`, `ioredis` and `undici` as
 * they load. Unset, the SDK is never imported and every function here is a no-op (the API package
 * alone, already loaded by prom-client, answers with no-op spans).
 */
let sdk: { stop(): Promise<void> } | null = null;

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Starts tracing when configured (environment or `.env`); `service` unless `OTEL_SERVICE_NAME`. */
export async function startTracing(service: string): Promise<void> {
  loadDotEnv();
  if (sdk || !tracingConfigured()) return;
  const { startSdk } = await import('./otel-sdk.ts');
  sdk = await startSdk(service);
}

export const tracingEnabled = (): boolean => sdk !== null;

/** Sends the spans still buffered (on shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.stop();
}

/**
 * Names each request's server span by its route (`GET /api/v1/courses/:id`, with `http.route`) and
 * puts its trace and span ids on the request's log lines (`trace_id`, `span_id`). The incoming
 * `traceparent` is continued by the HTTP instrumentation itself.
 */
export function registerTracing(app: FastifyInstance): void {
  if (!tracingEnabled()) return;
  // Called as Fastify routes the request, inside the server span's context.
  app.setChildLoggerFactory((logger, bindings, options) => {
    const span = trace.getActiveSpan()?.spanContext();
    return logger.child(
      span ? { ...bindings, trace_id: span.traceId, span_id: span.spanId } : bindings,
      options,
    );
  });
  app.addHook('onRequest', async (req) => {
    // Pages' in-process API calls run inside the page's span: they must not rename it.
    if (!(req.raw.socket instanceof Socket)) return;
    const route = req.routeOptions.url;
    if (!route) return;
    const span = trace.getActiveSpan();
    span?.updateName(`${req.method} ${route}`);
    span?.setAttribute('http.route', route);
  });
}

/** The job data key that carries the `traceparent` of the code that queued the job. */
const JOB_TRACE = 'traceparent';

/** `data` plus the current trace context, when there is one to carry (tracing on, inside a span). */
export function withTraceContext<T extends Record<string, string>>(data: T): T {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...data, [JOB_TRACE]: carrier.traceparent } : data;
}

const tracer = trace.getTracer('tradeshelf');

/**
 * Runs one pg-boss job in a span of its own (a new trace, since a job may run long after and many
 * times), linked to the request or job that queued it. The handler sees the data without the key.
 */
export async function runTracedJob<T extends Record<string, string>>(
  queue: string,
  data: T,
  handler: (data: T) => Promise<void>,
): Promise<void> {
  // Scheduled jobs come with no data at all (null).
  const traceparent = (data as T | null)?.[JOB_TRACE];
  let own = data;
  if (traceparent !== undefined) {
    const { [JOB_TRACE]: _carried, ...rest } = data;
    own = rest as T;
  }
  if (!tracingEnabled()) return handler(own);
  const queued = traceparent
    ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }))
    : undefined;
  const links: Link[] = queued ? [{ context: queued }] : [];
  return tracer.startActiveSpan(
    `job ${queue}`,
    {
      root: true,
      kind: SpanKind.CONSUMER,
      links,
      attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue },
    },
    async (span) => {
      try {
        await handler(own);
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
