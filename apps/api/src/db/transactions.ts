import { NodePgSession } from 'drizzle-orm/node-postgres/session';
import type { TablesRelationalConfig } from 'drizzle-orm';
import { npmVersion } from 'drizzle-orm/version';
import type pg from 'pg';

type Session = NodePgSession<Record<string, unknown>, TablesRelationalConfig>;
type Transaction = (this: Session, run: unknown, config?: unknown) => Promise<unknown>;
interface SessionFields {
  client: pg.Pool | pg.PoolClient;
  dialect: unknown;
  schema: unknown;
  options: unknown;
}

/**
 * drizzle-orm 0.45 checks a client out of the pool for a transaction and sends BEGIN before its
 * try/finally: when BEGIN fails (the database went away between checkout and BEGIN) the client is
 * never released. Each such outage leaks one connection for good, and `pool.end()` (shutdown) then
 * waits forever. Here the checkout is ours, released in every case; drizzle's own code runs the
 * transaction on that client (BEGIN, COMMIT, ROLLBACK), which it never releases. A connection that
 * broke is dropped by pg-pool on release. See ADR 019.
 */
export function releaseTransactionClients(): void {
  if (!npmVersion.startsWith('0.45.'))
    throw new Error(
      `drizzle-orm ${npmVersion}: check ADR 019 before upgrading (transaction checkout)`,
    );
  const proto = NodePgSession.prototype as unknown as Record<string, unknown>;
  if (proto.releasesTransactionClients) return;
  const original = proto.transaction as Transaction;
  proto.transaction = async function (this: Session, run: unknown, config?: unknown) {
    const self = this as unknown as SessionFields;
    if (!('totalCount' in self.client)) return original.call(this, run, config);
    const client = await self.client.connect();
    try {
      const session = new NodePgSession(
        client,
        self.dialect as never,
        self.schema as never,
        self.options as never,
      );
      return await original.call(session, run, config);
    } finally {
      client.release();
    }
  } satisfies Transaction;
  proto.releasesTransactionClients = true;
}

/**
 * The node-postgres client a Drizzle handle runs on: inside a transaction, the connection that holds
 * it. For code that must write in the caller's transaction through another library (pg-boss's
 * `db` option).
 */
export function clientOf(tx: unknown): pg.Pool | pg.PoolClient {
  return (tx as { session: SessionFields }).session.client;
}
