import path from 'node:path';
import type { Config } from '../config.ts';
import { connectDatabase, type Database } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';
import { runMigrations } from './migrate.ts';
import { isEmptyDataDir, keepTemplate, readTemplate } from './template.ts';

export interface OpenedDatabase {
  database: Database;
  url: string;
  embedded: EmbeddedPostgres | null;
}

/**
 * DATABASE_URL when set, else the embedded PGlite in DATA_DIR; migrated either way. The pool has no
 * hold limit yet (startup work may be long): a server sets `database.holdLimitMs` before serving.
 */
export async function openDatabase(
  config: Config,
  log?: { warn(obj: object, msg: string): void },
): Promise<OpenedDatabase> {
  let embedded: EmbeddedPostgres | null = null;
  let url = config.DATABASE_URL;
  let keep = false;
  if (!url) {
    const dataDir = path.resolve(config.DATA_DIR, 'pglite');
    // An empty data dir starts from the kept migrated template when there is one (template.ts).
    const template = isEmptyDataDir(dataDir) ? readTemplate() : null;
    keep = !template && isEmptyDataDir(dataDir);
    embedded = await startEmbeddedPostgres({
      dataDir,
      ...(template ? { loadDataDir: template } : {}),
    });
    url = embedded.url;
  }
  const database = connectDatabase(url, embedded ? 8 : config.DATABASE_POOL_SIZE, {
    prepared: !embedded,
    onError: (err) => log?.warn({ err: err.message }, 'database connection lost'),
    ...(config.DATABASE_READ_URL && !embedded
      ? {
          read: {
            url: config.DATABASE_READ_URL,
            max: config.DATABASE_READ_POOL_SIZE,
            onUnavailable: (err: Error) =>
              log?.warn({ err: err.message }, 'read replica unreachable; read from the primary'),
          },
        }
      : {}),
  });
  await runMigrations(database.db);
  // Only a speed-up: a start never fails because the template could not be written.
  if (embedded && keep)
    await keepTemplate(embedded.pglite).catch((err: Error) =>
      log?.warn({ err: err.message }, 'migrated template not kept'),
    );
  return { database, url, embedded };
}
