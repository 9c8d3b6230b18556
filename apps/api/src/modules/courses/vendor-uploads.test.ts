import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiErrorSchema, vendorCoursesRoutes as vr, type RouteDef } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { vendorToken } from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { listen, multipartBody, RawConnection, requestHead, within } from '../../../test/http.ts';
import type { Storage } from '../../integrations/storage/port.ts';

// Issue 26 (ADR 048): lesson videos stream to storage as they arrive, over real HTTP. Slots per
// account (429) and per process (503), the vendor's storage budget, a chunked body over the limit
// answered before its end, and a file refused by its first bytes leave nothing stored.

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-media');
const mp4 = readFileSync(path.join(MEDIA, 'momentum-intro.mp4'));
const pdf = readFileSync(path.join(MEDIA, 'position-sizing-worksheet.pdf'));
const MB = 1024 * 1024;

const t = useTestApp(() =>
  startTestApp({
    COURSE_VIDEO_MAX_MB: '32',
    VENDOR_STORAGE_MB: '40',
    UPLOADS_PER_ACCOUNT: '1',
    UPLOADS_PER_PROCESS: '2',
  }),
);
let port: number;
let filesRoot: string;
/** What storage received, per key: the sizes of the pieces it was handed. */
const received = new Map<string, number[]>();
const storageFed = new EventEmitter();

beforeAll(async () => {
  filesRoot = path.join(t.config.DATA_DIR, 'files');
  // Storage that records what it is handed, piece by piece, and passes it on.
  const real = t.deps.storage;
  t.deps.storage = Object.assign(Object.create(real) as Storage, {
    putStream(key: string, body: AsyncIterable<Buffer>, type: string) {
      const sizes: number[] = [];
      received.set(key, sizes);
      async function* tap() {
        for await (const chunk of body) {
          sizes.push(chunk.length);
          storageFed.emit('chunk');
          yield chunk;
        }
      }
      return real.putStream(key, tap(), type).catch((err: unknown) => {
        storageFed.emit('failed');
        throw err;
      });
    },
  });
  port = await listen(t.app);
});

const total = (key: string) => (received.get(key) ?? []).reduce((a, b) => a + b, 0);
const allReceived = () => [...received.keys()].reduce((n, key) => n + total(key), 0);

/** Resolves once storage has been handed `bytes` more than `from` in all (bounded by `within`). */
function storageReached(from: number, bytes: number): Promise<void> {
  return within(
    10_000,
    'storage receiving the upload',
    new Promise<void>((resolve) => {
      const check = () => {
        if (allReceived() - from < bytes) return;
        storageFed.off('chunk', check);
        resolve();
      };
      storageFed.on('chunk', check);
      check();
    }),
  );
}

/** Resolves when storage next gives up on a body (it failed before its end). */
const storageFailed = () =>
  new Promise<void>((resolve) => storageFed.once('failed', () => resolve()));

/** Every file under the storage root (finished objects and any left-behind temp files). */
function storedFiles(dir = filesRoot): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

/** A vendor with a course of one module and `lessons` lessons. */
async function vendorCourse(lessons = 1) {
  const vendor = await createVendor(t);
  const token = await vendorToken(t, vendor);
  const product = await createProduct(t, vendor.id, { kind: 'course', amount: 2_900 });
  const call = (route: RouteDef, body: unknown) =>
    t.call(route, { token, params: { productId: product.id }, body });
  const added = await call(vr.addCourseModule, { title: 'Basics' });
  expect(added.statusCode, added.body).toBe(201);
  const moduleId = added.json().course.modules[0].id as string;
  const lessonIds: string[] = [];
  for (let i = 0; i < lessons; i++) {
    const lesson = await call(vr.addCourseLesson, { moduleId, title: `Lesson ${i + 1}` });
    expect(lesson.statusCode, lesson.body).toBe(201);
    lessonIds.push(lesson.json().lessonId as string);
  }
  return { token, productId: product.id, lessonIds };
}

/** A video of `size` bytes: a real MP4's start, then filler. */
const video = (size: number) => Buffer.concat([mp4, Buffer.alloc(size - mp4.length, 7)]);

/** The multipart envelope around one file, to send in pieces over a raw connection. */
function envelope(name: string) {
  const boundary = 'tradeshelf' + Math.random().toString(16).slice(2);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    open: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    close: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

interface Upload {
  conn: RawConnection;
  /** Sends the next bytes of the file. */
  send(bytes: Buffer): void;
  /** Sends the rest of the request and reads the answer. */
  finish(rest?: Buffer): Promise<{ status: number; body: string; headers: Record<string, string> }>;
}

/** Opens a video upload of a `fileSize`-byte file over real HTTP; the caller sends the file. */
async function openUpload(
  who: { token: string; productId: string },
  lessonId: string,
  options: { fileSize?: number; chunked?: boolean; name?: string } = {},
): Promise<Upload> {
  const env = envelope(options.name ?? 'lesson.mp4');
  const conn = await RawConnection.connect(port);
  const chunk = (b: Buffer) =>
    options.chunked
      ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')])
      : b;
  conn.write(
    requestHead('POST', `/api/v1/vendor/courses/${who.productId}/lessons/${lessonId}/video`, {
      authorization: `Bearer ${who.token}`,
      'content-type': env.contentType,
      ...(options.chunked
        ? { 'transfer-encoding': 'chunked' }
        : { 'content-length': env.open.length + options.fileSize! + env.close.length }),
    }),
  );
  conn.write(chunk(env.open));
  return {
    conn,
    send: (bytes) => conn.write(chunk(bytes)),
    async finish(rest = Buffer.alloc(0)) {
      if (rest.length) conn.write(chunk(rest));
      conn.write(chunk(env.close));
      if (options.chunked) conn.write('0\r\n\r\n');
      try {
        return await within(20_000, 'upload answer', conn.response());
      } finally {
        conn.destroy();
      }
    },
  };
}

/** A whole video upload over real HTTP. */
async function uploadVideo(
  who: { token: string; productId: string },
  lessonId: string,
  file: Buffer,
) {
  return (await openUpload(who, lessonId, { fileSize: file.length })).finish(file);
}

const videoRow = async (lessonId: string) =>
  (
    await t.database.db.execute<{ video_key: string | null; video_bytes: string | null }>(
      sql`select video_key, video_bytes from course_lessons where id = ${lessonId}`,
    )
  ).rows[0]!;

describe('lesson video uploads stream to storage', () => {
  it('hands storage the video in pieces while the request is still arriving', async () => {
    const who = await vendorCourse();
    const file = video(12 * MB);
    const before = allReceived();
    const upload = await openUpload(who, who.lessonIds[0]!, { fileSize: file.length });
    upload.send(file.subarray(0, 6 * MB));
    // Half the file is sent and the rest held back: storage must already be writing it.
    await storageReached(before, 4 * MB);
    const res = await upload.finish(file.subarray(6 * MB));
    expect(res.status, res.body).toBe(200);
    const row = await videoRow(who.lessonIds[0]!);
    expect(Number(row.video_bytes)).toBe(file.length);
    const pieces = received.get(row.video_key!)!;
    expect(total(row.video_key!)).toBe(file.length);
    // No piece near the file's size: it was never gathered in memory.
    expect(Math.max(...pieces)).toBeLessThanOrEqual(1 * MB);
    expect(readFileSync(path.join(filesRoot, row.video_key!)).equals(file)).toBe(true);
  });

  it('answers uploads past the slots with 429 (account) and 503 (process), with Retry-After', async () => {
    const [a, b, c] = [await vendorCourse(2), await vendorCourse(), await vendorCourse()];
    const file = video(4 * MB);
    const from = allReceived();
    const first = await openUpload(a, a.lessonIds[0]!, { fileSize: file.length });
    first.send(file.subarray(0, 2 * MB));
    await storageReached(from, 1 * MB);

    // The same account again: its one slot is taken.
    const again = await uploadVideo(a, a.lessonIds[1]!, video(1 * MB));
    expect(again.status).toBe(429);
    expect(apiErrorSchema.parse(JSON.parse(again.body)).code).toBe('rate_limited');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);

    const from2 = allReceived();
    const second = await openUpload(b, b.lessonIds[0]!, { fileSize: file.length });
    second.send(file.subarray(0, 2 * MB));
    await storageReached(from2, 1 * MB);
    // Another account, but the process takes two at once.
    const full = await uploadVideo(c, c.lessonIds[0]!, video(1 * MB));
    expect(full.status).toBe(503);
    expect(apiErrorSchema.parse(JSON.parse(full.body)).code).toBe('service_unavailable');
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);

    expect((await first.finish(file.subarray(2 * MB))).status).toBe(200);
    expect((await second.finish(file.subarray(2 * MB))).status).toBe(200);
    // The slots were given back.
    expect((await uploadVideo(c, c.lessonIds[0]!, video(1 * MB))).status).toBe(200);
    expect((await uploadVideo(a, a.lessonIds[1]!, video(1 * MB))).status).toBe(200);
    expect(await videoRow(b.lessonIds[0]!)).toMatchObject({ video_bytes: String(file.length) });
  });

  it('refuses a video past the vendor’s storage budget, naming it, and keeps nothing of it', async () => {
    const who = await vendorCourse(2);
    expect((await uploadVideo(who, who.lessonIds[0]!, video(24 * MB))).status).toBe(200);
    const files = storedFiles().length;
    const res = await uploadVideo(who, who.lessonIds[1]!, video(24 * MB));
    expect(res.status).toBe(413);
    const error = apiErrorSchema.parse(JSON.parse(res.body));
    expect(error.error).toMatch(/40 MB storage budget/);
    expect(error.fields?.file).toBe(error.error);
    expect((await videoRow(who.lessonIds[1]!)).video_key).toBeNull();
    expect(storedFiles()).toHaveLength(files);
    // What fits in what is left is taken.
    expect((await uploadVideo(who, who.lessonIds[1]!, video(16 * MB))).status).toBe(200);
    // The budget is full; a video replaced frees its room for the new one.
    expect((await uploadVideo(who, who.lessonIds[1]!, video(16 * MB))).status).toBe(200);
    expect((await uploadVideo(who, who.lessonIds[0]!, video(MB))).status).toBe(200);
  });

  it('keeps nothing of a video stored before the form turns out wrong (a second file)', async () => {
    const who = await vendorCourse();
    const files = storedFiles().length;
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'a.mp4', type: 'video/mp4', data: video(MB) },
      { name: 'file', filename: 'b.mp4', type: 'video/mp4', data: video(MB) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/vendor/courses/${who.productId}/lessons/${who.lessonIds[0]}/video`,
      payload: body,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': contentType },
    });
    expect(res.statusCode).toBe(413);
    expect((await videoRow(who.lessonIds[0]!)).video_key).toBeNull();
    expect(storedFiles()).toHaveLength(files);
  });

  it('keeps nothing of an upload the client abandons, and gives its slot back', async () => {
    const who = await vendorCourse();
    const files = storedFiles().length;
    const from = allReceived();
    const file = video(8 * MB);
    const upload = await openUpload(who, who.lessonIds[0]!, { fileSize: file.length });
    upload.send(file.subarray(0, 4 * MB));
    await storageReached(from, 2 * MB);
    const failed = within(10_000, 'storage giving up', storageFailed());
    upload.conn.destroy();
    await failed;
    expect((await videoRow(who.lessonIds[0]!)).video_key).toBeNull();
    expect(storedFiles()).toHaveLength(files);
    // The one slot of this account is free again.
    expect((await uploadVideo(who, who.lessonIds[0]!, video(MB))).status).toBe(200);
  });

  it('answers a chunked body over the limit with 413 before its end, and closes the connection', async () => {
    const who = await vendorCourse();
    const files = storedFiles().length;
    const upload = await openUpload(who, who.lessonIds[0]!, { chunked: true });
    const piece = video(MB);
    // 33 MB of a 32 MB limit, and the body never ends.
    for (let i = 0; i < 33; i++) upload.send(piece);
    const res = await within(10_000, '413 before the body ends', upload.conn.response());
    expect(res.status).toBe(413);
    expect(apiErrorSchema.parse(JSON.parse(res.body)).error).toBe('Videos can be up to 32 MB.');
    expect(res.headers.connection).toBe('close');
    await within(10_000, 'the connection closed', upload.conn.closed);
    expect((await videoRow(who.lessonIds[0]!)).video_key).toBeNull();
    expect(storedFiles()).toHaveLength(files);
  });

  it('refuses a file by its first bytes before the rest arrives; nothing is stored', async () => {
    const who = await vendorCourse();
    const files = storedFiles().length;
    const keys = received.size;
    const fake = Buffer.concat([pdf, Buffer.alloc(8 * MB, 1)]);
    const upload = await openUpload(who, who.lessonIds[0]!, { fileSize: fake.length });
    upload.send(fake.subarray(0, MB));
    const res = await within(10_000, '415 before the body ends', upload.conn.response());
    upload.conn.destroy();
    expect(res.status).toBe(415);
    expect(apiErrorSchema.parse(JSON.parse(res.body)).code).toBe('unsupported_media_type');
    expect(received.size).toBe(keys);
    expect((await videoRow(who.lessonIds[0]!)).video_key).toBeNull();
    expect(storedFiles()).toHaveLength(files);
  });
});
