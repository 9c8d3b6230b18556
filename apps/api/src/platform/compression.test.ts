import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { catalogRoutes } from '@tradeshelf/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { ensureWebBuild } from '../../test/web-build.ts';
import { seedDemoCatalog } from '../modules/catalog/seed.ts';
import { pageReads } from '../page-reads.ts';
import { acceptedEncodings, SlottedGzip } from './compression.ts';
import { inProcessCaller, loadWebApp } from './web.ts';

let t: TestApp;
let buildDir: string;
let productPath: string;

beforeAll(async () => {
  buildDir = ensureWebBuild();
  t = await startTestApp(
    {},
    {
      web: (app) => loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 10 }),
    },
  );
  await seedDemoCatalog(t.database.db);
  const found = await t.call(catalogRoutes.search, { query: { q: 'RSI Divergence Pro' } });
  const card = found.json().products[0] as { id: string; slug: string };
  productPath = `/p/${card.id}/${card.slug}`;
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({
    method,
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

/** The body as the browser reads it, after undoing `Content-Encoding`. */
function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  expect(encoding).toBeUndefined();
  return raw.toString();
}

const nonceOf = (res: LightMyRequestResponse) =>
  /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))![1]!;

describe('Accept-Encoding', () => {
  it('takes what the client names, refuses q=0, and reads * as any other', () => {
    expect([...acceptedEncodings('gzip, deflate, br, zstd')]).toEqual(['br', 'gzip']);
    expect([...acceptedEncodings('gzip;q=1.0, br;q=0')]).toEqual(['gzip']);
    expect([...acceptedEncodings('*;q=0.5, gzip;q=0')]).toEqual(['br']);
    expect([...acceptedEncodings('identity')]).toEqual([]);
    expect([...acceptedEncodings('br;q=abc')]).toEqual([]);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });
});

describe('SlottedGzip', () => {
  it('decodes to the body with the value in every slot, wherever the slots sit', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 3000 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (body, rawSlots, slotLength, value) => {
          // Ascending, non-overlapping slots inside the body (adjacent and at the edges included).
          const slots: number[] = [];
          let next = 0;
          for (const r of [...rawSlots].sort((a, b) => a - b)) {
            const at = next + (r % 50);
            if (at + slotLength > body.length) break;
            slots.push(at);
            next = at + slotLength;
          }
          const fill = Buffer.from(value.subarray(0, slotLength));
          const expected = Buffer.from(body);
          for (const at of slots) fill.copy(expected, at);
          const { chunks, length } = new SlottedGzip(body, slots, slotLength).with(fill);
          const stream = Buffer.concat(chunks);
          expect(stream.length).toBe(length);
          expect(gunzipSync(stream).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('JSON answers', () => {
  const url = `${catalogRoutes.search.path}?q=indicator&limit=20`;

  it('go out brotli or gzip above 1 KB, the same JSON once decoded, with Vary', async () => {
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get(url, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decoded(res))).toEqual(plain.json());
    }
  });

  it('stay plain under 1 KB', async () => {
    const res = await get('/healthz', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('server-rendered pages', () => {
  it('are compressed, each response with its own nonce, cached or not', async () => {
    const plain = await get(productPath);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const seen = new Set<string>();
    // The first may render; the rest are page-cache hits, gzip from the stored stream.
    for (const accept of ['gzip, deflate, br', 'gzip, deflate, br', 'gzip', 'br']) {
      const res = await get(productPath, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept === 'br' ? 'br' : 'gzip');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      // Near what gzip makes of the page in one pass, though the nonce's places were left open (~35
      // bytes each: ~13 % on this small test page, ~3 % on a 65 KB demo page).
      expect(res.rawPayload.length).toBeLessThan(gzipSync(plain.rawPayload).length * 1.2);
      const html = decoded(res);
      const nonce = nonceOf(res);
      expect(seen.has(nonce)).toBe(false);
      seen.add(nonce);
      // The page is the plain one with this response's nonce wherever the plain one had its own.
      expect(html).toBe(plain.body.replaceAll(nonceOf(plain), nonce));
    }
  });

  it('are compressed when rendered for each request too (no page cache)', async () => {
    // A search with a fresh query renders; an `Authorization` header keeps it out of the cache.
    const res = await t.app.inject({
      url: '/search?q=indicator',
      headers: { 'accept-encoding': 'br', authorization: 'Bearer x' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(decoded(res)).toContain(`nonce="${nonceOf(res)}"`);
  });

  it('answer HEAD uncompressed', async () => {
    const res = await get(productPath, 'gzip, br', 'HEAD');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(0);
  });
});

describe('built assets', () => {
  const assets = () => readdirSync(path.join(buildDir, 'client/assets'));

  it('the build wrote brotli and gzip beside every script and stylesheet', () => {
    const files = assets();
    const text = files.filter((f) => /\.(js|css)$/.test(f));
    expect(text.length).toBeGreaterThan(5);
    for (const f of text) {
      const size = readFileSync(path.join(buildDir, 'client/assets', f)).length;
      if (size < 1024) continue;
      expect(files, `${f}.br`).toContain(`${f}.br`);
      expect(files, `${f}.gz`).toContain(`${f}.gz`);
    }
  });

  it('go out precompressed as the client takes them, immutable for a year', async () => {
    const script = assets()
      .filter((f) => f.endsWith('.js') && assets().includes(`${f}.br`))
      .sort()[0]!;
    const original = readFileSync(path.join(buildDir, 'client/assets', script));
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const res = await get(`/assets/${script}`, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(decoded(res)).toBe(original.toString());
      if (encoding) expect(res.rawPayload.length).toBeLessThan(original.length / 2);
    }
  });
});

describe('files outside /assets', () => {
  let other: TestApp;
  beforeAll(async () => {
    // A client build of our own: a hashed asset with its brotli copy and a file kept by its name.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-assets-'));
    mkdirSync(path.join(dir, 'client/assets'), { recursive: true });
    const css = Buffer.from('body{color:#fff}'.repeat(200));
    writeFileSync(path.join(dir, 'client/assets/site-abc123.css'), css);
    writeFileSync(path.join(dir, 'client/assets/site-abc123.css.br'), brotliCompressSync(css));
    writeFileSync(path.join(dir, 'client/site.webmanifest'), '{"name":"Tradeshelf"}');
    other = await startTestApp(
      {},
      {
        web: async () => ({
          listener: (_req, res) => void res.end(),
          clientDir: path.join(dir, 'client'),
        }),
      },
    );
  }, 240_000);
  afterAll(async () => {
    await other?.close();
  });

  it('are cached for an hour, not for a year', async () => {
    const res = await other.app.inject({ url: '/site.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const hashed = await other.app.inject({
      url: '/assets/site-abc123.css',
      headers: { 'accept-encoding': 'br' },
    });
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['content-encoding']).toBe('br');
  });
});
