import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local.ts';

// The local adapter's streamed reads (ADR 053): whole objects and inclusive byte ranges, as the
// deliverables' traced downloads and archive checks read them.

const read = async (stream: AsyncIterable<unknown>) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

describe('local storage getStream', () => {
  const storage = new LocalDiskStorage(
    mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-storage-')),
    'test-secret-test-secret-test-secret-xx',
  );

  it('streams an object whole, or a byte range of it; a missing key rejects', async () => {
    const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    await storage.put('deliverables/p/v', bytes);
    expect((await read(await storage.getStream('deliverables/p/v'))).equals(bytes)).toBe(true);
    const range = await read(
      await storage.getStream('deliverables/p/v', { start: 65_530, end: 65_539 }),
    );
    expect(range.equals(bytes.subarray(65_530, 65_540))).toBe(true);
    await expect(storage.getStream('deliverables/p/missing')).rejects.toThrow();
    await expect(storage.getStream('../outside')).rejects.toThrow('bad storage key');
  });
});
