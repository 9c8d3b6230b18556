import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { queuePool, queues } from '../jobs/queue.ts';
import { safeEqual } from '../lib.ts';
import { forwardedFor, isLoopback } from './local-only.ts';

/**
 * Prometheus metrics (issue 32). Counters and histograms are fed where things happen; every gauge
 * is read when scraped (a `collect` callback), so nothing polls the database between scrapes.
 * One registry per app (tests build many); the process metrics are the process's, registered once.
 */
export interface Metrics {
  registry: Registry;
  /** Seconds per request, by route pattern (never the raw URL) and status class. */
  http: Histogram<'method' | 'route' | 'status_class'>;
  /** Provider webhooks received, by kind and outcome. */
  webhooks: Counter<'kind' | 'outcome'>;
  /** Seconds from the provider's event to our receiving it. */
  webhookLag: Histogram<'kind'>;
  /** Our outbound webhook attempts (vendors' endpoints, buyers' alert endpoints), by outcome. */
  webhooksOut: Counter<'owner' | 'outcome'>;
  /** Seconds from an outbound message's queueing to its delivery. */
  webhookOutLag: Histogram<'owner'>;
  /** Seconds from an event that changed a Discord entitlement to the roles brought in line. */
  entitlementLag: Histogram<'event' | 'outcome'>;
  /** Prometheus text of every metric, the process's included. */
  text(): Promise<string>;
}

let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.5, 1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400];

interface JobRow {
  name: string;
  state: string;
  count: string | number;
  oldest: string | number | null;
}

interface ReplicaRow {
  seconds: number;
  bytes: number;
}

interface DeliveryRow {
  subscriber: string;
  pending: string | number;
  failing: string | number;
  oldest: string | number | null;
}

/** Where the gauges read from: the app's pool, the queue (and its pool), the event tables. */
export function createMetrics(sources: { database: Database; boss: PgBoss | null }): Metrics {
  const registry = new Registry();
  const pools: [string, pg.Pool][] = [['app', sources.database.pool]];
  const { replica } = sources.database;
  if (replica) pools.push(['read', replica.pool]);
  const jobsPool = sources.boss ? queuePool(sources.boss) : null;
  if (jobsPool) pools.push(['jobs', jobsPool]);

  const http = new Histogram({
    name: 'tradeshelf_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'tradeshelf_webhooks_received_total',
    help: 'Payment provider webhooks received, by kind (payment, transfer) and outcome.',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const webhookLag = new Histogram({
    name: 'tradeshelf_webhook_lag_seconds',
    help: 'Seconds from the provider event to its webhook reaching this node.',
    labelNames: ['kind'] as const,
    buckets: LAG_BUCKETS,
    registers: [registry],
  });

  const webhooksOut = new Counter({
    name: 'tradeshelf_webhooks_sent_total',
    help: 'Outbound webhook attempts, by owner (vendor, alert-buyer) and outcome (delivered, failed).',
    labelNames: ['owner', 'outcome'] as const,
    registers: [registry],
  });
  const webhookOutLag = new Histogram({
    name: 'tradeshelf_webhook_delivery_lag_seconds',
    help: 'Seconds from an outbound webhook message being queued to its delivery, by owner.',
    labelNames: ['owner'] as const,
    buckets: LAG_BUCKETS,
    registers: [registry],
  });

  const entitlementLag = new Histogram({
    name: 'tradeshelf_entitlement_convergence_lag_seconds',
    help: 'Seconds from the event that changed a Discord entitlement (purchase paid, refunded, disputed, revoked; subscription resumed or ended) to the converge that acted on it, by event and outcome (in_line, needs_buyer, not_bound, failing).',
    labelNames: ['event', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });

  new Gauge({
    name: 'tradeshelf_db_pool_connections',
    help: 'Database pool connections by state (idle, busy) and the pool size limit (max).',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) {
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'busy' }, pool.totalCount - pool.idleCount);
        this.set({ pool: name, state: 'max' }, pool.options.max ?? 10);
      }
    },
  });
  new Gauge({
    name: 'tradeshelf_db_pool_waiting_clients',
    help: 'Queries waiting for a free connection of the pool.',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) this.set({ pool: name }, pool.waitingCount);
    },
  });

  // pg-boss's job table, read as its `getQueueSize` does (state before `active` = waiting), for
  // every queue and state in one statement rather than one call per queue.
  const jobsRead = async (): Promise<JobRow[]> => {
    if (!sources.boss) return [];
    const result = await sources.boss.getDb().executeSql(
      `select name, state, count(*) as count,
              extract(epoch from now() - min(created_on)) as oldest
         from pgboss.job where state in ('created', 'retry', 'active', 'failed')
        group by name, state`,
      [],
    );
    return result.rows as JobRow[];
  };
  // One read of each table per scrape, shared by the gauges that show it (`text` starts a scrape).
  let scrape: {
    jobs?: Promise<JobRow[]>;
    deliveries?: Promise<DeliveryRow[]>;
    replica?: Promise<ReplicaRow[]>;
  } = {};
  // A read that fails (the database is down) shows as `source_up 0`; the pools and the process
  // still answer, so /metrics works through an outage.
  const up = new Map<string, number>();
  const guarded = <T>(source: string, read: () => Promise<T[]>) =>
    read().then(
      (rows) => (up.set(source, 1), rows),
      () => (up.set(source, 0), [] as T[]),
    );
  new Gauge({
    name: 'tradeshelf_metrics_source_up',
    help: 'Whether the last scrape could read a source (jobs, events): 0 while the database is unreachable.',
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      await Promise.all([jobRows(), deliveryRows(), replicaRows()]);
      for (const [source, value] of up) this.set({ source }, value);
    },
  });
  const jobRows = () => (scrape.jobs ??= guarded('jobs', jobsRead));
  // Every queue shows, 0 when empty, so an alert on it never reads a missing series as fine.
  const zero = (gauge: Gauge<'queue'>) => {
    gauge.reset();
    for (const queue of Object.values(queues)) gauge.set({ queue }, 0);
  };
  if (sources.boss) {
    new Gauge({
      name: 'tradeshelf_jobs_waiting',
      help: 'Jobs waiting to run (created or retry), by queue.',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        zero(this);
        for (const r of await jobRows())
          if (r.state === 'created' || r.state === 'retry')
            this.inc({ queue: r.name }, Number(r.count));
      },
    });
    new Gauge({
      name: 'tradeshelf_jobs_active',
      help: 'Jobs running now, by queue.',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        zero(this);
        for (const r of await jobRows())
          if (r.state === 'active') this.set({ queue: r.name }, Number(r.count));
      },
    });
    new Gauge({
      name: 'tradeshelf_jobs_failed',
      help: 'Jobs that used up their retries and are kept as failed (until archived), by queue.',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        zero(this);
        for (const r of await jobRows())
          if (r.state === 'failed') this.set({ queue: r.name }, Number(r.count));
      },
    });
    new Gauge({
      name: 'tradeshelf_jobs_oldest_waiting_seconds',
      help: 'Age of the oldest waiting job, by queue.',
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        zero(this);
        const oldest = new Map<string, number>();
        for (const r of await jobRows())
          if ((r.state === 'created' || r.state === 'retry') && r.oldest !== null)
            oldest.set(r.name, Math.max(oldest.get(r.name) ?? 0, Number(r.oldest)));
        for (const [queue, seconds] of oldest) this.set({ queue }, seconds);
      },
    });
  }

  // Undelivered domain events (ADR 028), read through the partial index on undelivered rows.
  const deliveryRows = () =>
    (scrape.deliveries ??= guarded('events', () =>
      sources.database.pool
        .query<DeliveryRow>(
          `select d.subscriber, count(*) as pending,
                count(*) filter (where d.attempts > 0) as failing,
                extract(epoch from now() - min(e.occurred_at)) as oldest
           from event_deliveries d join domain_events e on e.id = d.event_id
          where d.delivered_at is null
          group by d.subscriber`,
        )
        .then((r) => r.rows),
    ));
  new Gauge({
    name: 'tradeshelf_event_deliveries_pending',
    help: 'Domain event deliveries not yet done, by subscriber.',
    labelNames: ['subscriber'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await deliveryRows())
        this.set({ subscriber: r.subscriber }, Number(r.pending));
    },
  });
  new Gauge({
    name: 'tradeshelf_event_deliveries_failing',
    help: 'Undelivered domain event deliveries that failed at least once, by subscriber.',
    labelNames: ['subscriber'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await deliveryRows())
        this.set({ subscriber: r.subscriber }, Number(r.failing));
    },
  });
  new Gauge({
    name: 'tradeshelf_event_delivery_lag_seconds',
    help: 'Age of the oldest undelivered domain event, by subscriber (0 when all are delivered).',
    labelNames: ['subscriber'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await deliveryRows())
        this.set({ subscriber: r.subscriber }, Number(r.oldest ?? 0));
    },
  });

  // The replica's replay against the primary's WAL position (ADR 061): seconds since the last
  // replayed commit while WAL waits to be replayed (0 when all received WAL is replayed, so an idle
  // primary does not read as lag), and bytes of WAL not yet replayed.
  const replicaRows = () =>
    (scrape.replica ??= replica
      ? guarded('replica', async () => {
          const [theirs, ours] = await Promise.all([
            replica.pool.query<{ seconds: string | number | null; replayed: string | null }>(
              `select case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                           else extract(epoch from now() - pg_last_xact_replay_timestamp()) end as seconds,
                      pg_last_wal_replay_lsn()::text as replayed`,
            ),
            sources.database.pool.query<{ current: string }>(
              `select pg_current_wal_lsn()::text as current`,
            ),
          ]);
          const row = theirs.rows[0];
          if (!row?.replayed) throw new Error('DATABASE_READ_URL is not a replica');
          const bytes = lsnBytes(ours.rows[0]!.current) - lsnBytes(row.replayed);
          return [{ seconds: Number(row.seconds ?? 0), bytes: Math.max(0, Number(bytes)) }];
        })
      : Promise.resolve([]));
  if (replica) {
    new Gauge({
      name: 'tradeshelf_db_replica_lag_seconds',
      help: 'Seconds the read replica is behind the primary (time since its last replayed commit while WAL waits; 0 when caught up).',
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await replicaRows()) this.set(r.seconds);
      },
    });
    new Gauge({
      name: 'tradeshelf_db_replica_lag_bytes',
      help: 'Bytes of primary WAL the read replica has not replayed yet.',
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await replicaRows()) this.set(r.bytes);
      },
    });
  }

  return {
    registry,
    http,
    webhooks,
    webhookLag,
    webhooksOut,
    webhookOutLag,
    entitlementLag,
    async text() {
      scrape = {};
      return (await processMetrics().metrics()) + '\n' + (await registry.metrics());
    },
  };
}

/** A WAL position (`16/B374D848`) as a byte offset. */
function lsnBytes(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** The label for a request: its route pattern; pages and unmatched paths by what they are. */
function routeLabel(req: FastifyRequest, reply: FastifyReply): string {
  const url = req.routeOptions.url;
  // @fastify/static's routes (one per built file) carry the file they serve.
  if (url) return 'file' in req.routeOptions.config ? '(static)' : url;
  // Only the not-found handler has no route: it serves pages when the web app is built.
  return reply.statusCode === 404 ? '(unmatched)' : '(page)';
}

/**
 * Whether `/metrics` may be served: to loopback (the socket's peer, with no forwarding header
 * naming anyone else, whatever TRUST_PROXY says), or with `Authorization: Bearer METRICS_TOKEN`.
 */
export function metricsAllowed(
  req: FastifyRequest,
  config: Pick<Config, 'METRICS_TOKEN'>,
): boolean {
  const auth = req.headers.authorization;
  if (config.METRICS_TOKEN && typeof auth === 'string' && auth.startsWith('Bearer '))
    return safeEqual(auth.slice('Bearer '.length), config.METRICS_TOKEN);
  return isLoopback(req.raw.socket.remoteAddress) && forwardedFor(req).every(isLoopback);
}

/** Times every request and serves `/metrics` (404 to anyone `metricsAllowed` refuses). */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, config: Config): void {
  app.addHook('onResponse', async (req, reply) => {
    metrics.http.observe(
      {
        method: req.method,
        route: routeLabel(req, reply),
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!metricsAllowed(req, config))
      return reply.status(404).send({ error: `No route for GET /metrics.`, code: 'not_found' });
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.text());
  });
}
