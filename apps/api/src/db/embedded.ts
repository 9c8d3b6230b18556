import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
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
    extensions: { pg_trgm, fuzzystrmatch },
  });
  // What the socket serves and callers get: `exec` also ends a batch a dropped connection left open.
  const db = batchAware(pglite);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: 64,
  });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres?sslmode=disable`,
    pglite: db,
    async stop() {
      await server.stop();
      await pglite.close();
    },
  };
}

/**
 * pglite-socket queues protocol messages from all connections and keeps one connection's messages
 * together only inside a transaction. An extended-protocol query (Parse, Bind, Execute … Sync) outside
 * a transaction can then interleave with another connection's and lose its unnamed portal ("portal
 * does not exist") under concurrent load. Reporting "in transaction" until the Sync (or a simple Query)
 * has run makes the queue keep each batch whole. See ADR 010.
 */
function batchAware(pglite: PGlite): PGlite {
  let midBatch = false;
  const SYNC = 0x53;
  const QUERY = 0x51;
  return new Proxy(pglite, {
    get(target, prop, receiver) {
      if (prop === 'isInTransaction') return () => target.isInTransaction() || midBatch;
      if (prop === 'execProtocolRawStream') {
        return async (message: Uint8Array, options: unknown) => {
          const type = message[0];
          // Startup messages begin with a length (first byte 0); they end nothing and start nothing.
          const result = await target.execProtocolRawStream(message, options as never);
          midBatch = type !== SYNC && type !== QUERY && type !== 0 && type !== 0x58;
          return result;
        };
      }
      if (prop === 'exec') {
        return async (query: string) => {
          midBatch = false;
          return target.exec(query);
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
