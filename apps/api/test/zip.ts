import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a test archive; `size` overrides the declared uncompressed size (lying headers). */
export interface ZipEntry {
  name: string | Buffer;
  data: Buffer;
  deflate?: boolean;
  size?: number;
}

/** A ZIP archive built by hand, so tests can make the unsafe ones an honest tool would refuse to. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const records: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const size = e.size ?? e.data.length;
    const shared = { method: e.deflate ? 8 : 0, crc, compressed: body.length, size, name };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    writeShared(local, 6, shared);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    writeShared(record, 8, shared);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    records.push(record, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(records);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** The fields a local header and its central directory record share, the flags at `at` on. */
function writeShared(
  header: Buffer,
  at: number,
  e: { method: number; crc: number; compressed: number; size: number; name: Buffer },
) {
  header.writeUInt16LE(0x0800, at); // names are UTF-8
  header.writeUInt16LE(e.method, at + 2);
  header.writeUInt32LE(e.crc, at + 8);
  header.writeUInt32LE(e.compressed, at + 12);
  header.writeUInt32LE(e.size, at + 16);
  header.writeUInt16LE(e.name.length, at + 20);
}
