import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  pglite: PGlite;
  stop(): Promise<void>;
}

/**
 * Runs PGlite (PostgreSQL in WebAssembly) behind a local Postgres socket so the rest of the app
 * talks plain `pg` to it: one code path for the embedded database and a real server.
 */
export async function startEmbeddedPostgres(options: {
  dataDir?: string;
  loadDataDir?: Blob;
  port?: number;
}): Promise<EmbeddedPostgres> {
  if (options.dataDir) mkdirSync(path.dirname(path.resolve(options.dataDir)), { recursive: true });
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: 64,
  });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres?sslmode=disable`,
    pglite,
    async stop() {
      await server.stop();
      await pglite.close();
    },
  };
}
