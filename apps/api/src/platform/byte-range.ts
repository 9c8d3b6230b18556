import type { FastifyReply } from 'fastify';

/**
 * One HTTP byte range (RFC 9110 §14) of a representation of `size` bytes, for files that resume
 * and videos that seek. `If-Range` naming another validator, a multi-range or a malformed header
 * means the whole representation; a range that starts past the end cannot be satisfied.
 */
export type RangeAnswer =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function byteRange(
  headers: { range?: string; 'if-range'?: string },
  size: number,
  validators: { etag: string; lastModified?: string },
): RangeAnswer {
  const m = /^bytes=(\d*)-(\d*)$/.exec(headers.range ?? '');
  if (!m || (!m[1] && !m[2])) return { kind: 'whole' };
  const ifRange = headers['if-range'];
  // A part of a file that changed since the first part was read would splice two files.
  if (ifRange !== undefined && ifRange !== validators.etag && ifRange !== validators.lastModified)
    return { kind: 'whole' };
  const start = Math.max(0, m[1] ? Number(m[1]) : size - Number(m[2]));
  const end = Math.min(m[1] && m[2] ? Number(m[2]) : size - 1, size - 1);
  if (start > end || start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/** 416 in the error shape, naming the representation's length as RFC 9110 asks. */
export function unsatisfiable(reply: FastifyReply, size: number) {
  return reply
    .status(416)
    .header('content-range', `bytes */${size}`)
    .type('application/json; charset=utf-8')
    .send({
      error: `The range is outside the file (${size} bytes).`,
      code: 'range_not_satisfiable',
    });
}

/** 206 with the part's place in the whole. */
export function sendPart(
  reply: FastifyReply,
  part: { start: number; end: number },
  size: number,
  body: NodeJS.ReadableStream,
) {
  return reply
    .status(206)
    .header('content-range', `bytes ${part.start}-${part.end}/${size}`)
    .header('content-length', part.end - part.start + 1)
    .send(body);
}
