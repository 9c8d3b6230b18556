import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { HOLD_LIMIT_MS } from './db/client.ts';
import { openDatabase } from './db/open.ts';
import { DEMO_PASSWORD, demoAccounts, seedAllAtStart } from './db/seed.ts';
import { checkStorage, createDeps } from './deps.ts';
import { renderDemoPictures } from './modules/catalog/seed.ts';
import { storeDemoCourseMedia } from './modules/courses/seed.ts';
import { storeDemoBuild } from './modules/licences/seed.ts';
import { demoDeliveries, storeDemoDeliverables } from './modules/deliverables/seed.ts';
import { startQueue } from './jobs/queue.ts';
import { closeServices, startBackground } from './lifecycle.ts';
import { pageReads } from './page-reads.ts';
import { DISCORD_CDN } from './integrations/chat/discord.ts';
import { mediaOrigins } from './platform/csp.ts';
import { onContentChange } from './platform/content-changes.ts';
import { publicOrigin } from './platform/origin.ts';
import { createLogger } from './platform/logging.ts';
import { inProcessCaller, loadWebApp } from './platform/web.ts';
import type { FastifyInstance } from 'fastify';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
    await checkStorage(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config);
  const opened = await openDatabase(config, log);
  log.info({ embedded: Boolean(opened.embedded) }, 'database migrated');
  if (config.SEED_DEMO && config.APP_ENV !== 'production') {
    const seeded = await seedAllAtStart(opened.database.db, { codeSecret: config.CODE_SECRET });
    if (seeded.accounts || seeded.catalog) log.info(seeded, 'demo data seeded');
  }
  // Migrations and seeding may hold a connection for long; serving may not (ADR 019).
  opened.database.holdLimitMs = HOLD_LIMIT_MS;

  const boss = await startQueue(opened.url, log, { max: config.JOBS_POOL_SIZE });
  const deps = createDeps(config, opened.database, log, { boss });
  if (config.SEED_DEMO && config.APP_ENV !== 'production') {
    // Before listening, so no page points at a picture still being drawn; skips stored ones.
    const pictures = await renderDemoPictures(deps.storage);
    if (pictures.rendered) log.info(pictures, 'demo pictures rendered');
    const media = await storeDemoCourseMedia(deps.storage);
    if (media) log.info({ media }, 'demo course media stored');
    await storeDemoBuild(deps.storage);
    const files = await storeDemoDeliverables(deps.storage, demoDeliveries);
    if (files) log.info({ files }, 'demo deliverables stored');
  }
  // Jobs (RUN_WORKER) and member events; Discord being down does not hold the start (ADR 047).
  const background = await startBackground(deps, boss, log, { serving: true });

  let built: FastifyInstance | null = null;
  const web = await loadWebApp(
    path.join(root, 'apps/web/build'),
    inProcessCaller(() => built!, pageReads),
    {
      pageCacheSeconds: config.PAGE_CACHE_SECONDS,
      onContentChange: (drop) => onContentChange(deps, drop),
      // Linked Discord accounts show their avatar from Discord's CDN.
      imgSrc: [...mediaOrigins(deps.storage), ...(config.DISCORD_SANDBOX ? [] : [DISCORD_CDN])],
      // Course videos and captions play from signed storage URLs.
      mediaSrc: mediaOrigins(deps.storage),
    },
  );
  if (!web) log.warn({}, 'web build missing: run `npm run build` to serve pages');
  const app = await buildApp(deps, {
    logger: log,
    web,
    requestLines: config.LOG_FORMAT === 'pretty',
  });
  built = app;
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // The sandbox's gateway is this port: member events connect to it now.
  const watch = background.afterListen();

  const shown = publicOrigin(config);
  const lines = [
    '',
    `  Tradeshelf is running at ${shown}  (${config.APP_ENV}, ${opened.embedded ? 'embedded PostgreSQL in ' + config.DATA_DIR : 'PostgreSQL'})`,
    `  API docs: ${shown}/docs`,
  ];
  if (config.APP_ENV === 'local') lines.push(`  Outbox (codes from e-mails): ${shown}/dev/mail`);
  if (config.SEED_DEMO && config.APP_ENV !== 'production') {
    lines.push(`  Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const a of demoAccounts) lines.push(`    ${a.email.padEnd(34)} ${a.roles.join(', ')}`);
  }
  console.log(lines.join('\n') + '\n');
  log.info({ address }, 'listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish (the app cuts those still running after
    // SHUTDOWN_GRACE_SECONDS), then stop jobs and close the database.
    const force = setTimeout(
      () => process.exit(1),
      config.SHUTDOWN_GRACE_SECONDS * 1000 + 15_000,
    ).unref();
    await closeServices({ app, boss, deps, embedded: opened.embedded, watch }, log);
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
