// Loaded only when tracing is configured (`tracing.ts`): nothing here is imported otherwise.
import { register } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';

/** Polled by balancers and Prometheus every second or so: a trace each would drown the rest. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The OpenTelemetry SDK as the standard variables configure it (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `_PROTOCOL`, `_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, `OTEL_RESOURCE_ATTRIBUTES`),
 * traces only: metrics stay on /metrics and logs on stdout unless their exporters are asked for.
 * Started before the app's modules load, so the instrumentations see `pg`, `ioredis`, `undici` and
 * `http` as they are imported.
 */
export async function startSdk(serviceName: string): Promise<{ stop(): Promise<void> }> {
  process.env.OTEL_SERVICE_NAME ||= serviceName;
  process.env.OTEL_METRICS_EXPORTER ||= 'none';
  process.env.OTEL_LOGS_EXPORTER ||= 'none';
  // The app is ES modules: imports reach the instrumentations through this loader hook, which
  // wraps only the modules an instrumentation asked for.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? '').split('?')[0]!),
        // Outbound calls (Stripe, Discord, webhooks) belong to a request's or a job's trace; the
        // background polls make none of their own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Without a parent the queue's and the catalogue poll's queries would each be a trace.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { stop: () => sdk.shutdown() };
}
