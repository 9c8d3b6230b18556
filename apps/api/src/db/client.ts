import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';
import { releaseTransactionClients } from './transactions.ts';
import { databaseUnavailableCause } from './unavailable.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or an open transaction: repositories accept either. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Opening a connection, or waiting for a free one, fails after this: a blackholed host answers 503, not never. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** The longest a request or job may hold a connection once the app serves (ADR 019). */
export const HOLD_LIMIT_MS = 10_000;

export interface PoolOptions {
  max: number;
  connectTimeoutMs?: number;
  /** See `Database.holdLimitMs`; 0 = none. */
  holdLimitMs?: number;
  applicationName?: string;
  /** Told when a connection idle in the pool is lost (the next checkout opens a new one). */
  onError?: (err: Error) => void;
}

export interface GuardedPool {
  pool: pg.Pool;
  /** Read at each checkout, so startup work can run without a limit and serving with one. */
  holdLimitMs: number;
}

/**
 * A pg pool that survives its database going away. node-postgres removes the pool's error listener
 * from a client while it is checked out, so a connection dropped then (57P01 on shutdown, a reset)
 * would be an unhandled 'error' event and kill the process: every client gets a listener of its own
 * for its whole life. The failure still reaches whoever is using the client, as a query error.
 */
export function createPool(url: string, options: PoolOptions): GuardedPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  const guarded: GuardedPool = { pool, holdLimitMs: options.holdLimitMs ?? 0 };
  const onError = options.onError ?? (() => undefined);
  pool.on('error', (err) => onError(err));
  pool.on('connect', (client) => client.on('error', () => undefined));

  // A database that stops answering (a blackholed host) would pin a connection, its request and the
  // shutdown for as long as TCP takes to give up; past the hold limit the connection is closed, its
  // query fails, and the pool discards it when it comes back.
  const holds = new WeakMap<pg.PoolClient, NodeJS.Timeout>();
  pool.on('acquire', (client) => {
    if (guarded.holdLimitMs <= 0) return;
    const timer = setTimeout(() => {
      client.end().catch(() => undefined);
    }, guarded.holdLimitMs);
    holds.set(client, timer.unref());
  });
  pool.on('release', (_err, client) => {
    clearTimeout(holds.get(client));
    holds.delete(client);
  });
  return guarded;
}

/** A streaming replica's handles (`DATABASE_READ_URL`, ADR 061). */
export interface Replica {
  pool: pg.Pool;
  db: Db;
}

/** The replica a `fromReplica` read runs against; a database outside it answers from its primary. */
const replicaScope = new AsyncLocalStorage<Replica>();

export interface Database {
  /**
   * The primary's pool and handle, except inside this database's `fromReplica`, where they are the
   * replica's: the reads below it (prepared statements included) need not know where they run.
   */
  pool: pg.Pool;
  db: Db;
  /** Whether named prepared statements are safe: not on PGlite, whose connections share one session. */
  prepared: boolean;
  /**
   * The longest a connection may be held (ms, 0 = no limit). Migrations and seeding run without one
   * (a slow migration is not an outage); serving sets `HOLD_LIMIT_MS`.
   */
  holdLimitMs: number;
  /** The read replica, when one is configured; null: every read goes to the primary. */
  replica: Replica | null;
  /**
   * Runs a read on the replica (ADR 061): only reads that may be a moment behind the primary (public
   * catalogue pages), never a write (the replica refuses it) nor what a user reads after their own
   * write. No replica, or one that cannot be reached: the primary answers.
   */
  fromReplica<T>(read: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function connectDatabase(
  url: string,
  max = 10,
  options: Omit<PoolOptions, 'max'> & {
    prepared?: boolean;
    /** `DATABASE_READ_URL` and its pool size. */
    read?: { url: string; max: number; onUnavailable?: (err: Error) => void };
  } = {},
): Database {
  releaseTransactionClients();
  const guarded = createPool(url, { ...options, max });
  const { pool } = guarded;
  const db = drizzle(pool, { schema });
  const { read } = options;
  const readGuarded = read
    ? createPool(read.url, {
        ...options,
        max: read.max,
        applicationName: options.applicationName ? `${options.applicationName}-read` : 'read',
      })
    : null;
  const replica: Replica | null = readGuarded
    ? { pool: readGuarded.pool, db: drizzle(readGuarded.pool, { schema }) }
    : null;
  const here = () => replica !== null && replicaScope.getStore() === replica;
  return {
    get pool() {
      return here() ? replica!.pool : pool;
    },
    get db() {
      return here() ? replica!.db : db;
    },
    prepared: options.prepared ?? false,
    replica,
    async fromReplica<T>(run: () => Promise<T>): Promise<T> {
      if (!replica || replica.pool.ending) return run();
      try {
        return await replicaScope.run(replica, run);
      } catch (err) {
        // The replica down or restarting: the primary still answers the page.
        const cause = databaseUnavailableCause(err);
        if (!cause) throw err;
        read?.onUnavailable?.(err instanceof Error ? err : new Error(String(err)));
        return run();
      }
    },
    get holdLimitMs() {
      return guarded.holdLimitMs;
    },
    set holdLimitMs(ms: number) {
      guarded.holdLimitMs = ms;
      if (readGuarded) readGuarded.holdLimitMs = ms;
    },
    close: async () => {
      if (readGuarded && !readGuarded.pool.ending) await readGuarded.pool.end();
      if (!pool.ending) await pool.end();
    },
  };
}
