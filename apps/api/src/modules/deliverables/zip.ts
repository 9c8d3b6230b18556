// ZIP archives (ADR 053): the central directory read back from storage after an upload (bounded
// memory: the end record's 64 KB tail, then a directory of at most DIR_MAX_BYTES), and the traced
// download: the vendor's bytes unchanged up to the directory, one added stored entry, the directory
// with one more record and a new end record. ZIP64 archives are refused at upload (files are at most
// 200 MB, so none needs it).
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { Storage } from '../../integrations/storage/port.ts';

const EOCD_SIG = 0x06054b50;
const EOCD_BYTES = 22;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const CDIR_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
/** The end record's comment is at most 65 535 bytes. */
const TAIL_BYTES = EOCD_BYTES + 0xffff;
/** Names in a directory of this size and more are not a trading tool's archive. */
export const DIR_MAX_BYTES = 4 * 1024 * 1024;
export const MAX_ENTRIES = 5_000;
/** An archive may expand to 20 times its size, and to 1 GB at most (bombs). */
export const MAX_RATIO = 20;
export const MAX_EXPANDED_BYTES = 1024 * 1024 * 1024;
/** Bit 11: names are UTF-8. */
const UTF8_FLAG = 0x0800;

export interface ZipDirectory {
  offset: number;
  size: number;
  entries: number;
  names: string[];
  expandedBytes: number;
}

/** Reads bytes `start`..`end` (inclusive) of the archive. */
export type RangeReader = (start: number, end: number) => Promise<Buffer>;

/** A stored object's ranges, through the storage port. */
export const storedRanges =
  (storage: Storage, key: string): RangeReader =>
  async (start, end) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.getStream(key, { start, end }))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

/** A file in memory (demo files), read the same way. */
export const bufferRanges =
  (bytes: Buffer): RangeReader =>
  (start, end) =>
    Promise.resolve(bytes.subarray(start, end + 1));

/** Why a name could escape or fool an unpacker, or null. */
export function entryNameProblem(name: string): string | null {
  if (!name) return 'empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control character';
  if (name.includes('\\')) return 'backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute path';
  if (name.split('/').some((part) => part === '..')) return 'parent path';
  return null;
}

/**
 * The directory of a stored ZIP of `size` bytes, or why it is refused: no end record, ZIP64, data
 * after or between, a name that escapes, too many entries, or more expansion than allowed.
 */
export async function readZipDirectory(
  readRange: RangeReader,
  size: number,
): Promise<{ ok: true; dir: ZipDirectory } | { ok: false; why: string }> {
  if (size < EOCD_BYTES) return { ok: false, why: 'too short' };
  const tailStart = Math.max(0, size - TAIL_BYTES);
  const tail = await readRange(tailStart, size - 1);
  let at = -1;
  for (let i = tail.length - EOCD_BYTES; i >= 0; i--) {
    if (
      tail.readUInt32LE(i) === EOCD_SIG &&
      i + EOCD_BYTES + tail.readUInt16LE(i + 20) === tail.length
    ) {
      at = i;
      break;
    }
  }
  if (at < 0) return { ok: false, why: 'no end record' };
  if (at >= 20 && tail.readUInt32LE(at - 20) === ZIP64_LOCATOR_SIG)
    return { ok: false, why: 'zip64' };
  const disk = tail.readUInt16LE(at + 4);
  const dirDisk = tail.readUInt16LE(at + 6);
  const onDisk = tail.readUInt16LE(at + 8);
  const entries = tail.readUInt16LE(at + 10);
  const dirSize = tail.readUInt32LE(at + 12);
  const dirOffset = tail.readUInt32LE(at + 16);
  if (disk !== 0 || dirDisk !== 0 || onDisk !== entries) return { ok: false, why: 'multi-disk' };
  if (entries === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff)
    return { ok: false, why: 'zip64' };
  if (entries > MAX_ENTRIES) return { ok: false, why: 'too many entries' };
  if (dirSize > DIR_MAX_BYTES) return { ok: false, why: 'directory too large' };
  // The directory ends where the end record starts: nothing hidden between, nothing prepended.
  if (dirOffset + dirSize !== tailStart + at) return { ok: false, why: 'directory misplaced' };
  const dir = dirSize ? await readRange(dirOffset, dirOffset + dirSize - 1) : Buffer.alloc(0);
  const names: string[] = [];
  let expanded = 0;
  let p = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CDIR_SIG)
      return { ok: false, why: 'broken directory' };
    const flags = dir.readUInt16LE(p + 8);
    const compressed = dir.readUInt32LE(p + 20);
    const uncompressed = dir.readUInt32LE(p + 24);
    const nameLen = dir.readUInt16LE(p + 28);
    const extraLen = dir.readUInt16LE(p + 30);
    const commentLen = dir.readUInt16LE(p + 32);
    const localOffset = dir.readUInt32LE(p + 42);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff || localOffset === 0xffffffff)
      return { ok: false, why: 'zip64' };
    if (localOffset >= dirOffset) return { ok: false, why: 'entry outside' };
    const end = p + 46 + nameLen;
    if (end + extraLen + commentLen > dir.length) return { ok: false, why: 'broken directory' };
    const raw = dir.subarray(p + 46, end);
    if (raw.includes(0)) return { ok: false, why: 'NUL in a name' };
    let name: string;
    try {
      // Names without the UTF-8 flag are CP437: its ASCII half is all a safe name needs.
      name =
        flags & UTF8_FLAG
          ? new TextDecoder('utf-8', { fatal: true }).decode(raw)
          : raw.toString('latin1');
    } catch {
      return { ok: false, why: 'unreadable name' };
    }
    const problem = entryNameProblem(name);
    if (problem) return { ok: false, why: problem };
    names.push(name);
    expanded += uncompressed;
    if (expanded > MAX_EXPANDED_BYTES || expanded > MAX_RATIO * Math.max(size, 1))
      return { ok: false, why: 'expands too far' };
    p = end + extraLen + commentLen;
  }
  if (p !== dir.length) return { ok: false, why: 'broken directory' };
  return {
    ok: true,
    dir: { offset: dirOffset, size: dirSize, entries, names, expandedBytes: expanded },
  };
}

/** DOS time and date of `at` (UTC), as ZIP headers carry them. */
/**
 * A local file header (30 bytes; the name follows it): version 2.0 needed, UTF-8 names, no extra
 * field. The central directory's record repeats its bytes 4 to 28.
 */
export function localFileHeader(f: {
  method: 'stored' | 'deflate';
  time: number;
  date: number;
  crc: number;
  packedSize: number;
  size: number;
  nameLength: number;
}): Buffer {
  const local = Buffer.alloc(30);
  local.writeUInt32LE(LOCAL_SIG, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(UTF8_FLAG, 6);
  local.writeUInt16LE(f.method === 'deflate' ? 8 : 0, 8);
  local.writeUInt16LE(f.time, 10);
  local.writeUInt16LE(f.date, 12);
  local.writeUInt32LE(f.crc, 14);
  local.writeUInt32LE(f.packedSize, 18);
  local.writeUInt32LE(f.size, 22);
  local.writeUInt16LE(f.nameLength, 26);
  return local;
}

function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export interface TracedZip {
  /** The whole download's length (Content-Length). */
  length: number;
  /** The bytes from `range.start` to `range.end` (inclusive), else all of them. */
  stream(range?: { start: number; end: number }): Readable;
}

/**
 * The archive with `name` (stored, UTF-8) added after the vendor's entries: their bytes, and the
 * directory's records for them, go out unchanged.
 */
export function tracedZip(
  storage: Storage,
  key: string,
  dir: { offset: number; size: number; entries: number },
  name: string,
  text: string,
  at: Date,
): TracedZip {
  const data = Buffer.from(text, 'utf8');
  const nameBytes = Buffer.from(name, 'utf8');
  const crc = crc32(data);
  const { time, date } = dosTime(at);
  const local = Buffer.concat([
    localFileHeader({
      method: 'stored',
      time,
      date,
      crc,
      packedSize: data.length,
      size: data.length,
      nameLength: nameBytes.length,
    }),
    nameBytes,
  ]);
  const record = Buffer.alloc(46 + nameBytes.length);
  record.writeUInt32LE(CDIR_SIG, 0);
  record.writeUInt16LE(20, 4);
  // Version needed … name length: the local header's fields, in the same order.
  local.copy(record, 6, 4, 28);
  // Extra, comment, disk, internal attributes: none; external: a plain file, read-only for all.
  record.writeUInt32LE(0, 38);
  record.writeUInt32LE(dir.offset, 42);
  nameBytes.copy(record, 46);
  const added = local.length + data.length;
  const end = Buffer.alloc(EOCD_BYTES);
  end.writeUInt32LE(EOCD_SIG, 0);
  end.writeUInt16LE(dir.entries + 1, 8);
  end.writeUInt16LE(dir.entries + 1, 10);
  end.writeUInt32LE(dir.size + record.length, 12);
  end.writeUInt32LE(dir.offset + added, 16);
  const length = dir.offset + added + dir.size + record.length + EOCD_BYTES;
  // The download in order: stored bytes (a range of the vendor's file) or bytes made here.
  const segments: Array<Buffer | { from: number; size: number }> = [
    { from: 0, size: dir.offset },
    local,
    data,
    { from: dir.offset, size: dir.size },
    record,
    end,
  ];
  async function* parts(first: number, last: number): AsyncGenerator<Buffer> {
    let at = 0;
    for (const segment of segments) {
      const size = Buffer.isBuffer(segment) ? segment.length : segment.size;
      const lo = Math.max(first, at);
      const hi = Math.min(last, at + size - 1);
      if (lo <= hi) {
        if (Buffer.isBuffer(segment)) yield segment.subarray(lo - at, hi - at + 1);
        else {
          const range = { start: segment.from + lo - at, end: segment.from + hi - at };
          for await (const chunk of await storage.getStream(key, range)) yield chunk as Buffer;
        }
      }
      at += size;
    }
  }
  return {
    length,
    stream: (range) =>
      Readable.from(parts(range?.start ?? 0, range?.end ?? length - 1), { objectMode: false }),
  };
}
