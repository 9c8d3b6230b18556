/** A unique index refused the row (SQLSTATE 23505): the caller answers with a conflict. */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  // Drizzle wraps driver errors; walk the cause chain for PostgreSQL's SQLSTATE.
  for (let i = 0; i < 4 && e; i++) {
    if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505')
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
