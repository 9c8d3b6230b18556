import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { within } from '../../test/http.ts';

// OpenTelemetry tracing (issue 32), through the real entry (`main.ts`) as production starts it:
// with OTEL_EXPORTER_OTLP_ENDPOINT set the process sends its spans to a receiver of this test's
// own, speaking OTLP/HTTP with JSON bodies (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).

const main = fileURLToPath(new URL('../main.ts', import.meta.url));

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpBody {
  resourceSpans: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}
type Span = OtlpSpan & { service: string };

const SERVER = 2;
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue));
};

/** A database query's span (the instrumentation's current and older attribute names). */
const isQuery = (s: OtlpSpan) =>
  (attr(s, 'db.system.name') ?? attr(s, 'db.system')) === 'postgresql' &&
  s.name.startsWith('pg.query');

/** A minimal OTLP/HTTP collector: keeps every span POSTed to /v1/traces. */
function receiver() {
  const spans: Span[] = [];
  const paths: string[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as OtlpBody;
        for (const rs of parsed.resourceSpans) {
          const service =
            rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, service });
        }
        for (const w of waiters.splice(0)) w();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  /** Resolves with what `find` returns once it returns something for the spans received. */
  const wait = async <T>(what: string, find: (s: Span[]) => T | undefined): Promise<T> =>
    within(
      15_000,
      what,
      (async () => {
        for (;;) {
          const found = find(spans);
          if (found !== undefined) return found;
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
      })(),
    );
  return { server, spans, paths, wait };
}

type LogLine = {
  level?: number;
  err?: unknown;
  msg?: string;
  address?: string;
  trace_id?: string;
  req?: { url?: string };
};

// On PostgreSQL the server gets a database of its own; without one it starts its embedded database in
// DATA_DIR as `npm start` does (a test's PGlite socket cannot hold the app's prepared statements).
let db: Awaited<ReturnType<typeof freshDatabase>> | null = null;
let child: ChildProcess;
let base: string;
const collector = receiver();
const lines: LogLine[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => collector.server.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${(collector.server.address() as AddressInfo).port}`;
  if (inject('pgTemplate')) db = await freshDatabase();
  child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      APP_ENV: 'local',
      DATABASE_URL: db?.url ?? '',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-tracing-')),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SEED_DEMO: 'false',
      // Jobs run in this process: a job's span links to the request that queued it.
      RUN_WORKER: 'true',
      SMTP_URL: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Export within a fifth of a second rather than the default five.
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_SERVICE_NAME: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = new Promise<LogLine>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{')) return;
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      if (line.msg === 'listening') resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const { address } = await within(120_000, 'the server to listen', listening);
  base = address!;
}, 150_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await within(30_000, 'exit', exited);
  }
  collector.server.close();
  await db?.drop();
});

/** The span and every span under it, by parent links. */
const subtree = (spans: Span[], root: Span): Span[] => {
  const out = [root];
  for (let i = 0; i < out.length; i++)
    for (const s of spans) if (s.parentSpanId === out[i]!.spanId) out.push(s);
  return out;
};

it('sends a server span named by its route, with the database queries as child spans, and logs its trace id', async () => {
  const res = await fetch(`${base}/api/v1/products/term/search?q=tracing`);
  expect(res.status).toBe(200);
  const server = await collector.wait('the search span', (spans) =>
    spans.find(
      (s) => s.kind === SERVER && attr(s, 'http.route') === '/api/v1/products/term/search',
    ),
  );
  expect(server.name).toBe('GET /api/v1/products/term/search');
  expect(server.service).toBe('tradeshelf-web');
  expect(server.parentSpanId ?? '').toBe('');
  const queries = await collector.wait('its queries', (spans) => {
    const pg = subtree(spans, server).filter((s) => isQuery(s));
    return pg.length ? pg : undefined;
  });
  for (const q of queries) expect(q.traceId).toBe(server.traceId);
  // The request's log lines carry the trace id.
  const logged = lines.filter(
    (l) => l.req?.url?.startsWith('/api/v1/products/term/search') || l.msg === 'request completed',
  );
  expect(logged.some((l) => l.trace_id === server.traceId)).toBe(true);
  // Health checks and scrapes make no traces.
  await fetch(`${base}/readyz`);
  await fetch(`${base}/healthz`);
  // Only traces are exported (metrics stay on /metrics, logs on stdout).
  expect(collector.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
});

it('continues the trace of an incoming traceparent', async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parent = '00f067aa0ba902b7';
  const res = await fetch(`${base}/api/v1/products/term/search?q=continued`, {
    headers: { traceparent: `00-${traceId}-${parent}-01` },
  });
  expect(res.status, JSON.stringify(lines.filter((l) => (l.level ?? 0) >= 50))).toBe(200);
  const server = await collector.wait('the continued span', (spans) =>
    spans.find((s) => s.kind === SERVER && s.traceId === traceId),
  );
  expect(server.parentSpanId).toBe(parent);
  expect(attr(server, 'http.route')).toBe('/api/v1/products/term/search');
  expect(collector.spans.some((s) => s.kind === SERVER && attr(s, 'url.path') === '/readyz')).toBe(
    false,
  );
});

it('runs a queued job in a span of its own, linked to the request that queued it', async () => {
  const res = await fetch(`${base}/api/v1/password/send-forgot-password-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody-traced@example.com' }),
  });
  expect(res.status).toBe(200);
  const request = await collector.wait('the request span', (spans) =>
    spans.find(
      (s) =>
        s.kind === SERVER &&
        attr(s, 'http.route') === '/api/v1/password/send-forgot-password-email',
    ),
  );
  const job = await collector.wait('the job span', (spans) =>
    spans.find((s) => s.name === 'job auth.reset-mail'),
  );
  expect(job.traceId).not.toBe(request.traceId);
  expect(job.links?.map((l) => [l.traceId, l.spanId])).toContainEqual([
    request.traceId,
    expect.any(String),
  ]);
  // The job's own queries are in its trace.
  await collector.wait('the job queries', (spans) => subtree(spans, job).find((s) => isQuery(s)));
});
