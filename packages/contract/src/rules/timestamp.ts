// Instants the API takes (request fields, page cursors): ISO 8601 text that PostgreSQL's timestamptz
// stores as written, within years the product means. Without zod, so the API's cursor codec and the
// browser check with the same rule. ADR 051.

export const TIMESTAMP_YEAR_MIN = 1970;
export const TIMESTAMP_YEAR_MAX = 9999;
/** PostgreSQL refuses a displacement of 16 hours or more ("time zone displacement out of range"). */
export const TIMESTAMP_OFFSET_MAX_MINUTES = 15 * 60 + 59;

export const TIMESTAMP_MESSAGE = `Use a date and time between ${TIMESTAMP_YEAR_MIN} and ${TIMESTAMP_YEAR_MAX}, to the microsecond at most, with a time zone offset within ±15:59.`;

const SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * True when `text` is `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or `±HH:MM` (at most six fraction
 * digits: PostgreSQL rounds more, and 23:59:59.9999999 of 9999-12-31 became year 10000), names a real
 * calendar day and time, has an offset within ±15:59, and falls in the years above both as written
 * and in UTC (so neither year 0000 nor 10000 reaches the database).
 */
export function isStorableTimestamp(text: string): boolean {
  const m = SHAPE.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offset = m[7] ? (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) : 0;
  if (Number(m[9] ?? 0) > 59 || Math.abs(offset) > TIMESTAMP_OFFSET_MAX_MINUTES) return false;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 30 February into March and 24:00 into the next day: a roll means no such time.
  if (
    local.getUTCFullYear() !== year ||
    local.getUTCMonth() !== month - 1 ||
    local.getUTCDate() !== day ||
    local.getUTCHours() !== hour ||
    local.getUTCMinutes() !== minute ||
    local.getUTCSeconds() !== second
  )
    return false;
  const utcYear = new Date(local.getTime() - offset * 60_000).getUTCFullYear();
  return [year, utcYear].every((y) => y >= TIMESTAMP_YEAR_MIN && y <= TIMESTAMP_YEAR_MAX);
}
