import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Database } from './client.ts';

const dialect = new PgDialect();

// Timestamps and intervals come back as PostgreSQL's text, exactly as drizzle's `execute` returns them,
// so a query answers the same whichever way it runs.
const asText = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    asText.has(oid)
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Statement names by SQL text. Bounded: each name is prepared once on every pooled connection. */
const names = new Map<string, string>();
const MAX_STATEMENTS = 200;

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_STATEMENTS) {
    name = 'ts_' + createHash('sha1').update(text).digest('base64url').slice(0, 24);
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a hot, fixed-shape read as a named prepared statement, so PostgreSQL parses and plans it once per
 * connection instead of on every call (planning the product-details query costs ~3× running it). On the
 * embedded PGlite, where every pooled connection shares one session, it runs unnamed (ADR 014).
 * Only for queries whose values are all parameters: each distinct SQL text becomes a statement.
 */
export async function preparedRows<T>(database: Database, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = database.prepared ? statementName(text) : undefined;
  const result = await database.pool.query({
    text,
    values: params,
    types,
    ...(name ? { name } : {}),
  });
  return result.rows as T[];
}
