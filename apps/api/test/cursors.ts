// Cursors a client could make by hand (issue 26, ADR 051): the old unsigned shapes (base64url of a
// JSON [time, id] pair, of `time|id`, of PostgreSQL's text form) carrying times PostgreSQL refuses,
// plus garbage and a forged signature. Every list must answer each with 400 naming `cursor`.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Times a lenient parser takes and PostgreSQL's timestamptz refuses. */
export const UNSTORABLE_TIMES = [
  '0000-01-01T00:00:00Z',
  '2026-01-01T00:00:00+16:00',
  '2026-01-01T00:00:00-16:00',
  '0000-01-01 00:00:00+00',
  '2026-01-01 00:00:00.123456+16',
];

export const FORGED_CURSORS: string[] = [
  ...UNSTORABLE_TIMES.map((at) => b64(JSON.stringify([at, 'x']))),
  ...UNSTORABLE_TIMES.map((at) => b64(`${at}|x`)),
  b64(JSON.stringify(['10000-01-01T00:00:00Z', 'x'])),
  b64('[1,'),
  'garbage',
  `${b64(JSON.stringify(['purchase', '2026-01-01T00:00:00.000Z', 'x']))}.${'A'.repeat(43)}`,
];

/** A 400 in the contract's error shape that names `field`. */
export function expectRefused(res: LightMyRequestResponse, field: string, label: string): void {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
  expect(res.json(), label).toMatchObject({
    code: 'validation_failed',
    fields: { [field]: expect.any(String) },
  });
}

/**
 * A list refuses every forged cursor, and each of `more`, with a 400 naming `cursor`. `list` reads
 * one page with the given cursor; `what` names the list in a failure.
 */
export async function expectCursorsRefused(
  list: (cursor: string) => Promise<LightMyRequestResponse>,
  more: string[] = [],
  what = '',
): Promise<void> {
  for (const cursor of [...more, ...FORGED_CURSORS])
    expectRefused(await list(cursor), 'cursor', what ? `${what} cursor=${cursor}` : cursor);
}
