/**
 * Telling "the database could not be reached or dropped the connection" apart from "this query was
 * wrong": the first is a 503 the client may retry, the second a bug (500).
 */

/** Socket-level failures, as Node reports them (`connect ECONNREFUSED …`, `read ECONNRESET` …). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: admin shutdown, crash shutdown, cannot connect now (starting or stopping), too many
 * connections. Class 08 (connection exception) is matched as a whole.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** PostgreSQL error severities that end the session (node-postgres' `DatabaseError.severity`). */
const FATAL_SEVERITIES = new Set(['FATAL', 'PANIC']);

/** node-postgres and pg-pool errors that carry no code. */
const DRIVER_MESSAGES = [
  'Connection terminated', // … unexpectedly / … due to connection timeout / closed past the hold limit
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Query read timeout',
];

/**
 * The connectivity failure behind `err`, if that is what it is: looks through `cause` (Drizzle wraps
 * driver errors in "Failed query: …") and `errors` (an AggregateError from trying several addresses).
 */
export function databaseUnavailableCause(err: unknown, depth = 0): Error | null {
  if (typeof err !== 'object' || err === null || depth > 5) return null;
  const e = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    severity?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    NETWORK_CODES.has(code) ||
    SERVER_CODES.has(code) ||
    // The server ended (or would not start) the session, whatever the reason: a database refusing
    // connections (55000, `ALLOW_CONNECTIONS false`), dropped or renamed (3D000), idle timeouts …
    // A query's own mistakes are `ERROR`, never `FATAL`.
    FATAL_SEVERITIES.has(e.severity as string) ||
    /^08[0-9A-Z]{3}$/.test(code) ||
    DRIVER_MESSAGES.some((m) => message.startsWith(m))
  )
    return err as Error;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = databaseUnavailableCause(inner, depth + 1);
      if (found) return found;
    }
  }
  return databaseUnavailableCause(e.cause, depth + 1);
}
