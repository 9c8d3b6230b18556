// Page cursors (ADR 051): one codec for every keyset or offset cursor the API hands out. A cursor is
// `base64url(JSON [kind, ...values]).hmac`, signed with a key derived from the app's secret, so a
// client can carry it back but not make one; its values are still checked field by field, so only a
// time PostgreSQL stores, an id, or a bounded count reaches a query. Anything else is a 400 that
// names `cursor` and reads nothing.
import { isStorableTimestamp } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import { AppError } from './errors.ts';
import { Sealer } from './seal.ts';

const EXPIRED = 'That page link has expired. Reload the list.';

type Check<T> = (v: unknown) => v is T;
type Values<S extends readonly Check<unknown>[]> = {
  -readonly [K in keyof S]: S[K] extends Check<infer T> ? T : never;
};

/** What a cursor's values may be. */
export const cursorField = {
  /** ISO 8601 text within the bounds of `isStorableTimestamp` (see `timeKey` for the encoder's side). */
  time: ((v: unknown) => typeof v === 'string' && isStorableTimestamp(v)) as Check<string>,
  /** A row id as the app makes them: printable ASCII, at most 64 characters. */
  id: ((v: unknown) =>
    typeof v === 'string' &&
    v.length > 0 &&
    v.length <= 64 &&
    /^[\x21-\x7e]+$/.test(v)) as Check<string>,
  /** A whole number from 0 to `max` (an offset). */
  count: (max: number) =>
    ((v: unknown) =>
      Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max) as Check<number>,
  /** One of `words` (a sort, a match mode). */
  oneOf: <W extends string>(...words: W[]) =>
    ((v: unknown) => typeof v === 'string' && (words as string[]).includes(v)) as Check<W>,
};

/** One list's cursor: its name (a cursor of one list is refused by another), its fields, its 400. */
export interface CursorKind<T extends unknown[]> {
  readonly name: string;
  readonly fields: readonly Check<unknown>[];
  readonly message: string;
  /** Type only: the values this kind carries. */
  readonly _values?: T;
}

export function cursorKind<const S extends readonly Check<unknown>[]>(
  name: string,
  fields: S,
  message: string = EXPIRED,
): CursorKind<Values<S>> {
  return { name, fields, message };
}

export class Cursors {
  private readonly sealer: Sealer;

  constructor(secret: string) {
    this.sealer = new Sealer(`cursor:${secret}`);
  }

  encode<T extends unknown[]>(kind: CursorKind<T>, values: T): string {
    return this.sealer.sign(
      Buffer.from(JSON.stringify([kind.name, ...values])).toString('base64url'),
    );
  }

  /** The values `encode` put in; 400 naming `cursor` for anything this app did not make just so. */
  decode<T extends unknown[]>(kind: CursorKind<T>, cursor: string): T {
    const payload = this.sealer.verify(cursor);
    let parsed: unknown = null;
    try {
      if (payload !== null) parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      // answered below
    }
    if (
      Array.isArray(parsed) &&
      parsed.length === kind.fields.length + 1 &&
      parsed[0] === kind.name &&
      kind.fields.every((ok, i) => ok(parsed[i + 1]))
    )
      return parsed.slice(1) as T;
    throw new AppError('validation_failed', kind.message, { cursor: kind.message });
  }
}

/** A timestamptz as a cursor's `time`: UTC ISO text with microseconds, so no row is lost between pages. */
export const timeKey = (column: SQL): SQL =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A list's page from the `limit + 1` rows its query read: the first `limit`, and the cursor after
 * the last of them when the extra row shows more follow (null on the last page).
 */
export function pageOf<R>(
  found: readonly R[],
  limit: number,
  cursorAfter: (last: R) => string,
): { page: R[]; nextCursor: string | null } {
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor: found.length > limit && last !== undefined ? cursorAfter(last) : null,
  };
}
