import { isStorableTimestamp, timestampInput } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { cursorField, cursorKind, Cursors } from './cursor.ts';
import { AppError } from './errors.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const PLACE = cursorKind('place', [cursorField.time, cursorField.id]);
const OFFSET = cursorKind('offset', [cursorField.oneOf('a', 'b'), cursorField.count(100)]);

/** The 400 the codec answers, or null when it decoded. */
function refusal(run: () => unknown): unknown {
  try {
    run();
    return null;
  } catch (e) {
    return e instanceof AppError ? { status: e.status, fields: e.fields } : e;
  }
}
const REFUSED = { status: 400, fields: { cursor: expect.any(String) } };

describe('the cursor codec (ADR 051)', () => {
  const cursors = new Cursors(SECRET);

  it('gives back what it encoded', () => {
    const at = '2026-11-28T19:49:25.123456Z';
    expect(cursors.decode(PLACE, cursors.encode(PLACE, [at, 'pur_1']))).toEqual([at, 'pur_1']);
    expect(cursors.decode(OFFSET, cursors.encode(OFFSET, ['b', 40]))).toEqual(['b', 40]);
  });

  it('refuses a cursor of another kind, another secret, or with its payload changed', () => {
    const good = cursors.encode(PLACE, ['2026-01-01T00:00:00.000Z', 'pur_1']);
    const [payload, mac] = good.split('.');
    const changed = Buffer.from(JSON.stringify(['place', '2026-01-02T00:00:00.000Z', 'pur_1']));
    for (const bad of [
      () => cursors.decode(OFFSET, good),
      () => new Cursors(`${SECRET}-other`).decode(PLACE, good),
      () => cursors.decode(PLACE, `${changed.toString('base64url')}.${mac}`),
      () => cursors.decode(PLACE, `${payload}.`),
      () => cursors.decode(PLACE, payload!),
      () => cursors.decode(PLACE, ''),
    ])
      expect(refusal(bad)).toEqual(REFUSED);
  });

  it('checks each value even under a good signature', () => {
    for (const values of [
      ['0000-01-01T00:00:00Z', 'x'],
      ['2026-01-01T00:00:00+16:00', 'x'],
      ['2026-01-01 00:00:00+00', 'x'],
      ['2026-01-01T00:00:00Z', ''],
      ['2026-01-01T00:00:00Z', 'x'.repeat(65)],
      ['2026-01-01T00:00:00Z', 7],
    ])
      expect(refusal(() => cursors.decode(PLACE, cursors.encode(PLACE, values as never)))).toEqual(
        REFUSED,
      );
    for (const values of [
      ['c', 1],
      ['a', 101],
      ['a', -1],
      ['a', 1.5],
    ])
      expect(
        refusal(() => cursors.decode(OFFSET, cursors.encode(OFFSET, values as never))),
      ).toEqual(REFUSED);
  });
});

describe('timestamps the contract accepts (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  /** Stored, and still within the years once PostgreSQL has rounded it to the microsecond. */
  const stored = async (text: string) => {
    try {
      const row = await t.database.db.execute<{ year: number }>(
        sql`select extract(year from ${text}::timestamptz at time zone 'UTC')::int as year`,
      );
      return row.rows[0]!.year <= 9999;
    } catch {
      return false;
    }
  };
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');

  it('accepts only what PostgreSQL stores, within the years the product means', async () => {
    const text = fc
      .record({
        year: fc.oneof(fc.integer({ min: 0, max: 10_999 }), fc.constantFrom(0, 1969, 1970, 9999)),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
        hour: fc.integer({ min: 0, max: 23 }),
        second: fc.integer({ min: 0, max: 59 }),
        offset: fc.oneof(
          fc.constant('Z'),
          fc
            .tuple(
              fc.constantFrom('+', '-'),
              fc.integer({ min: 0, max: 23 }),
              fc.integer({ min: 0, max: 59 }),
            )
            .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
        ),
      })
      .map(
        (d) =>
          `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}T${pad(d.hour)}:30:${pad(d.second)}${d.offset}`,
      );
    const edges = [
      '0000-01-01T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '1970-01-01T00:00:00+01:00',
      '9999-12-31T23:59:59Z',
      '9999-12-31T23:59:59-01:00',
      '2026-01-01T00:00:00+15:59',
      '2026-01-01T00:00:00+16:00',
      '2026-01-01T00:00:00-16:00',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      // The outside probe: seven fraction digits rounded up to year 10000 in PostgreSQL.
      '9999-12-31T23:59:59.9999999Z',
      '9999-12-31T23:59:59.999999Z',
      '2026-01-01T00:00:00.123456789+01:00',
    ];
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...edges), text), async (x) => {
        const accepted = timestampInput({ offset: true }).safeParse(x).success;
        expect(accepted, x).toBe(isStorableTimestamp(x));
        if (accepted) expect(await stored(x), x).toBe(true);
      }),
      { seed: 26, numRuns: 400 },
    );
    expect(isStorableTimestamp('2026-01-01T00:00:00+15:59')).toBe(true);
    expect(isStorableTimestamp('1969-12-31T23:59:59Z')).toBe(false);
    expect(isStorableTimestamp('1970-01-01T00:30:00+01:00')).toBe(false);
    expect(timestampInput().safeParse('2026-01-01T00:00:00+01:00').success).toBe(false);
  });
});
