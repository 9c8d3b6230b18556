// JSON written as it is read (ADR 060's export): a list that comes a page at a time is written a
// page at a time, so the answer's size never lives in memory, neither as objects nor as text.
import { Readable } from 'node:stream';

/** Characters per piece written. */
const PIECE = 16 * 1024;

/** A list read a page at a time (`db/pages.ts`). */
const isPages = (v: unknown): v is AsyncIterable<unknown[]> =>
  v !== null && typeof v === 'object' && Symbol.asyncIterator in v;

/**
 * `value` as JSON text, piece by piece. Plain objects are walked (their `undefined` members left
 * out, as JSON.stringify does); async iterables of arrays become one array, an element a line;
 * anything else is JSON.stringify's.
 */
export async function* jsonText(value: unknown): AsyncGenerator<string> {
  if (isPages(value)) {
    let first = true;
    yield '[';
    let text = '';
    for await (const page of value) {
      for (const item of page) {
        text += (first ? '\n' : ',\n') + JSON.stringify(item);
        first = false;
        // Pieces stay small: a page's text as one string would be a large object, which only a
        // full collection frees, and the process's memory would climb until one ran.
        if (text.length >= PIECE) {
          yield text;
          text = '';
        }
      }
    }
    yield `${text}${first ? ']' : '\n]'}`;
    return;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !('toJSON' in value && typeof value.toJSON === 'function')
  ) {
    let first = true;
    yield '{';
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonText(member);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value);
}

/**
 * A byte stream of `jsonText(value)` that reads ahead at most `highWaterMark` bytes: the next page
 * is read only once the client took the last one, so a slow reader costs no memory.
 */
export function jsonStream(value: unknown, highWaterMark = 64 * 1024): Readable {
  return Readable.from(jsonText(value), { objectMode: false, highWaterMark });
}
