import Fastify from 'fastify';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { connectDatabase, HOLD_LIMIT_MS } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { checkStorage, createDeps } from './deps.ts';
import { startQueue } from './jobs/queue.ts';
import { closeServices, startBackground } from './lifecycle.ts';
import { createLogger } from './platform/logging.ts';
import { registerMetrics } from './platform/metrics.ts';

/** Jobs in their own process (scale-out): needs DATABASE_URL, since PGlite serves one process. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  await checkStorage(config);
  if (!config.DATABASE_URL)
    throw new Error(
      'npm run worker needs DATABASE_URL (the embedded database runs inside npm start).',
    );
  const log = createLogger(config);
  // Jobs write and read their own writes: the worker never reads from DATABASE_READ_URL.
  const database = connectDatabase(config.DATABASE_URL, Math.min(config.DATABASE_POOL_SIZE, 4), {
    onError: (err) => log.warn({ err: err.message }, 'database connection lost'),
  });
  await runMigrations(database.db);
  database.holdLimitMs = HOLD_LIMIT_MS;
  const boss = await startQueue(config.DATABASE_URL, log, { max: config.JOBS_POOL_SIZE });
  const deps = createDeps(config, database, log, { boss });
  // The gateway connects in the background and retries: jobs run while Discord is down (ADR 047).
  const { watch } = await startBackground(deps, boss, log, { serving: false });
  // Its own `/metrics` (queues, pools, process), with the web nodes' access rules.
  let metrics = null;
  if (config.METRICS_PORT) {
    metrics = Fastify({ logger: false });
    registerMetrics(metrics, deps.metrics, config);
    await metrics.listen({ port: config.METRICS_PORT, host: config.HOST });
  }
  log.info({ metricsPort: config.METRICS_PORT ?? null }, 'worker started');
  const stop = async () => {
    await closeServices({ app: metrics, boss, deps, watch }, log);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  // A configuration problem is a message for the operator, not a stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
