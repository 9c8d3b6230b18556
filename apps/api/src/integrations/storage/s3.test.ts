import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3.ts';

// The S3 adapter's streamed put (ADR 048) against a loopback stand-in that speaks the few S3 calls it
// makes: a long body goes up as a multipart upload of bounded parts, a short one as one PUT, and a
// body that fails aborts the upload so nothing is kept.

const MB = 1024 * 1024;

interface Upload {
  key: string;
  parts: Map<number, Buffer>;
}

const objects = new Map<string, Buffer>();
const uploads = new Map<string, Upload>();
const aborted: string[] = [];
let server: http.Server;
let storage: S3Storage;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

function answer(res: http.ServerResponse, status: number, xml = '', headers = {}) {
  res.writeHead(status, { 'content-type': 'application/xml', ...headers });
  res.end(xml);
}

beforeAll(async () => {
  let next = 0;
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url!, 'http://s3.local');
      const key = decodeURIComponent(url.pathname.replace(/^\/bucket\//, ''));
      const uploadId = url.searchParams.get('uploadId');
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = `u${++next}`;
        uploads.set(id, { key, parts: new Map() });
        return answer(
          res,
          200,
          `<InitiateMultipartUploadResult><Bucket>bucket</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      if (req.method === 'PUT' && uploadId) {
        const n = Number(url.searchParams.get('partNumber'));
        uploads.get(uploadId)!.parts.set(n, body);
        return answer(res, 200, '', { etag: `"p${n}"` });
      }
      if (req.method === 'POST' && uploadId) {
        const up = uploads.get(uploadId)!;
        const order = [...up.parts.keys()].sort((a, b) => a - b);
        objects.set(up.key, Buffer.concat(order.map((n) => up.parts.get(n)!)));
        uploads.delete(uploadId);
        return answer(
          res,
          200,
          `<CompleteMultipartUploadResult><Bucket>bucket</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (req.method === 'DELETE' && uploadId) {
        aborted.push(key);
        uploads.delete(uploadId);
        return answer(res, 204);
      }
      if (req.method === 'PUT') {
        objects.set(key, body);
        return answer(res, 200, '', { etag: '"one"' });
      }
      if (req.method === 'GET') {
        const object = objects.get(key);
        if (!object) return answer(res, 404, '<Error><Code>NoSuchKey</Code></Error>');
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        if (!range) {
          res.writeHead(200, { 'content-length': object.length });
          return res.end(object);
        }
        const [start, end] = [Number(range[1]), Math.min(Number(range[2]), object.length - 1)];
        res.writeHead(206, {
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${object.length}`,
        });
        return res.end(object.subarray(start, end + 1));
      }
      answer(res, 400, '<Error><Code>NotImplemented</Code></Error>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.AWS_ACCESS_KEY_ID = 'test';
  process.env.AWS_SECRET_ACCESS_KEY = 'test-secret';
  storage = new S3Storage('bucket', {
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
});
afterAll(async () => {
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  await new Promise((resolve) => server?.close(resolve));
});

/** `size` bytes in 64 KB pieces, each piece's bytes its index; throws after `failAfter` bytes. */
async function* body(size: number, failAfter = Infinity): AsyncGenerator<Buffer> {
  for (let sent = 0, i = 0; sent < size; i++) {
    if (sent >= failAfter) throw new Error('client went away');
    const piece = Buffer.alloc(Math.min(64 * 1024, size - sent), i % 251);
    sent += piece.length;
    yield piece;
  }
}
const whole = async (size: number) => {
  const parts: Buffer[] = [];
  for await (const p of body(size)) parts.push(p);
  return Buffer.concat(parts);
};

describe('S3 streamed put', () => {
  it('sends a long body as a multipart upload of 8 MB parts', async () => {
    const size = 20 * MB + 123;
    const seen: number[] = [];
    const original = server.listeners('request')[0] as http.RequestListener;
    server.removeAllListeners('request');
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.includes('partNumber')) seen.push(Number(req.headers['content-length']));
      original(req, res);
    });
    try {
      await storage.putStream('courses/c/l/v.mp4', body(size), 'video/mp4');
    } finally {
      server.removeAllListeners('request');
      server.on('request', original);
    }
    expect(objects.get('courses/c/l/v.mp4')!.equals(await whole(size))).toBe(true);
    expect(seen).toEqual([8 * MB, 8 * MB, 4 * MB + 123]);
  });

  it('sends a short body as one PUT', async () => {
    await storage.putStream('licences/builds/p/b', body(100_000), 'application/zip');
    expect(objects.get('licences/builds/p/b')!.equals(await whole(100_000))).toBe(true);
  });

  it('aborts the upload when the body fails, keeping nothing', async () => {
    await expect(
      storage.putStream('courses/c/l/broken.mp4', body(30 * MB, 10 * MB), 'video/mp4'),
    ).rejects.toThrow('client went away');
    expect(aborted).toContain('courses/c/l/broken.mp4');
    expect(objects.has('courses/c/l/broken.mp4')).toBe(false);
    expect(uploads.size).toBe(0);
  });
});

describe('S3 streamed get (ADR 053)', () => {
  const read = async (stream: AsyncIterable<unknown>) => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  };

  it('streams an object whole, or a byte range of it; a missing key rejects', async () => {
    const bytes = await whole(300_000);
    objects.set('deliverables/p/v', bytes);
    expect((await read(await storage.getStream('deliverables/p/v'))).equals(bytes)).toBe(true);
    const range = await read(
      await storage.getStream('deliverables/p/v', { start: 70_000, end: 70_009 }),
    );
    expect(range.equals(bytes.subarray(70_000, 70_010))).toBe(true);
    await expect(storage.getStream('deliverables/p/missing')).rejects.toThrow();
  });
});

describe('S3 signed links (private files: course videos, downloads)', () => {
  it('are signed for the name browsers reach the store at, when the nodes reach it by another', async () => {
    await storage.put('downloads/p/v1.zip', Buffer.from('build bytes'), 'application/zip');
    const browserFacing = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The nodes' private name for the store (compose: http://objects:9000) resolves nowhere here.
    const behindProxy = new S3Storage('bucket', {
      region: 'us-east-1',
      endpoint: 'http://objects.invalid:9000',
      signedUrlEndpoint: browserFacing,
    });
    const { url } = await behindProxy.signedUrl('downloads/p/v1.zip', 60, {
      downloadName: 'v1.zip',
    });
    expect(new URL(url).origin).toBe(browserFacing);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).toString()).toBe('build bytes');
    // Without it, links name the nodes' endpoint, as before.
    const plain = new S3Storage('bucket', {
      region: 'us-east-1',
      endpoint: 'http://objects.invalid:9000',
    });
    expect(new URL((await plain.signedUrl('downloads/p/v1.zip', 60)).url).origin).toBe(
      'http://objects.invalid:9000',
    );
  });
});
