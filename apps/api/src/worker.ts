import pino from 'pino';
import { loadConfig, loadDotEnv } from './config.ts';
import { connectDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { createDeps } from './deps.ts';
import { startQueue } from './jobs/queue.ts';
import { startWorkers } from './jobs/workers.ts';
import { endLapsedSubscriptions, expireCheckouts } from './modules/orders/service.ts';

/** Jobs in their own process (scale-out): needs DATABASE_URL, since PGlite serves one process. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (!config.DATABASE_URL)
    throw new Error(
      'npm run worker needs DATABASE_URL (the embedded database runs inside npm start).',
    );
  const log = pino({ level: config.LOG_LEVEL });
  const database = connectDatabase(config.DATABASE_URL, 4);
  await runMigrations(database.db);
  const boss = await startQueue(config.DATABASE_URL);
  const deps = createDeps(config, database, log, { boss });
  await startWorkers(boss, {
    mailer: deps.mailer,
    expireCheckouts: () => expireCheckouts(deps.database.db),
    endLapsedSubscriptions: () => endLapsedSubscriptions(deps.database.db),
    log,
  });
  log.info({}, 'worker started');
  const stop = async () => {
    await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    await deps.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
