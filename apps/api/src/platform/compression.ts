import { brotliCompressSync, constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/**
 * Compression of what the app renders itself (ADR 025): server-rendered pages, which leave Fastify's
 * reply pipeline (the reply is hijacked) and so miss `@fastify/compress`. JSON answers go through
 * `@fastify/compress` with the same threshold and brotli quality; built assets are compressed at
 * build time.
 */

/** Below this a compressed answer saves less than its headers and the CPU cost. */
export const COMPRESS_THRESHOLD = 1024;
/** Brotli quality for answers compressed per response: ~1.3 ms for a 65 KB page, ~18 % under gzip. */
export const BROTLI_QUALITY = 4;

export type Encoding = 'br' | 'gzip';

/**
 * The encodings a client takes, from `Accept-Encoding`. `q=0` (or a q-value that is not a number)
 * refuses one; `*` stands for any not named.
 */
export function acceptedEncodings(header: string | string[] | undefined): Set<Encoding> {
  const found = new Set<Encoding>();
  if (!header) return found;
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const value = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, value ? Number(value.slice(2)) : 1);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const weight = q.get(encoding) ?? q.get('*');
    if (weight !== undefined && weight > 0) found.add(encoding);
  }
  return found;
}

/** Brotli when taken (smaller), else gzip, else none. */
export function preferred(accepted: ReadonlySet<Encoding>): Encoding | null {
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

/** Whether an answer of this type and size is worth compressing. */
export function compressible(contentType: string | undefined, length: number): boolean {
  return (
    length >= COMPRESS_THRESHOLD &&
    /^(text\/|application\/(json|javascript|xml|[\w.+-]+\+(json|xml)))/i.test(contentType ?? '')
  );
}

export function compress(body: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipSync(body, { level: 6 });
}

// RFC 1952: magic, deflate, no flags, no mtime, no extra flags, unknown OS.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * A gzip stream compressed once with slots left open, so each response can put its own value (the
 * CSP nonce, ADR 022) in them without compressing the page again. The text between slots is deflated
 * once, each piece on its own and ending on a byte boundary (sync flush); a slot goes out as a
 * deflate "stored" block holding the value as is; the trailer's CRC-32 and length are computed per
 * response (native CRC over ~65 KB: ~30 µs in all). Any gzip decoder reads the result as one member.
 * Each piece is deflated with the text before it as its dictionary (the decoder's window), so it
 * compresses as it would in one pass.
 */
export class SlottedGzip {
  private readonly pieces: Uint8Array[];
  private readonly deflated: Buffer[];
  readonly slotLength: number;
  private readonly totalLength: number;

  /** `slots`: byte offsets in `body` of values `slotLength` long, ascending and not overlapping. */
  constructor(body: Uint8Array, slots: readonly number[], slotLength: number) {
    if (slotLength > 0xffff) throw new Error('a slot must fit one stored block');
    this.slotLength = slotLength;
    this.pieces = [];
    const starts: number[] = [];
    let from = 0;
    for (const at of slots) {
      this.pieces.push(body.subarray(from, at));
      starts.push(from);
      from = at + slotLength;
    }
    this.pieces.push(body.subarray(from));
    starts.push(from);
    // What the decoder's window holds before each piece, with every slot as NUL bytes. A piece with
    // no NUL byte can match none of them, so its back-references never reach a slot's (per-response)
    // bytes; a piece that has one is deflated without the dictionary.
    const masked = Buffer.from(body);
    for (const at of slots) masked.fill(0, at, at + slotLength);
    const last = this.pieces.length - 1;
    this.deflated = this.pieces.map((piece, i) => {
      const start = starts[i]!;
      const dictionary =
        start > 0 && !piece.includes(0) ? masked.subarray(Math.max(0, start - 32768), start) : null;
      return deflateRawSync(piece, {
        level: 9,
        ...(dictionary ? { dictionary } : {}),
        // Every piece but the last ends byte-aligned and not final, so blocks can follow it.
        ...(i < last ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
      });
    });
    this.totalLength = body.byteLength;
  }

  /** The stream with `value` in every slot, as buffers to write in order, and its length. */
  with(value: Buffer): { chunks: Buffer[]; length: number } {
    if (value.length !== this.slotLength) throw new Error('value does not fit the slot');
    // Stored block: BFINAL=0, BTYPE=00 (we are byte-aligned), LEN and its one's complement, bytes.
    const stored = Buffer.alloc(5 + value.length);
    stored[0] = 0;
    stored.writeUInt16LE(value.length, 1);
    stored.writeUInt16LE(~value.length & 0xffff, 3);
    value.copy(stored, 5);
    let crc = 0;
    const chunks: Buffer[] = [GZIP_HEADER];
    for (let i = 0; i < this.pieces.length; i++) {
      if (i > 0) {
        chunks.push(stored);
        crc = crc32(value, crc);
      }
      chunks.push(this.deflated[i]!);
      crc = crc32(this.pieces[i]!, crc);
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(this.totalLength >>> 0, 4);
    chunks.push(trailer);
    return { chunks, length: chunks.reduce((n, c) => n + c.length, 0) };
  }
}
