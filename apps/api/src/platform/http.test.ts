import { EventEmitter, once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiErrorSchema, authRoutes, vendorCoursesRoutes as vr } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorToken } from '../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../test/factories/catalog.ts';
import { createUser } from '../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import {
  listen,
  multipartBody,
  RawConnection,
  type RawResponse,
  rawRequest,
  requestHead,
  within,
} from '../../test/http.ts';

/** Issue 13: timeouts, close, and the error shape of answers given before any route runs. */

const shape = (body: string) => apiErrorSchema.parse(JSON.parse(body));

async function tokenFor(t: TestApp): Promise<string> {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  return res.json().token as string;
}

const mp4 = readFileSync(
  path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '../modules/courses/demo-media/momentum-intro.mp4',
  ),
);

/** A vendor's course lesson, ready for a video: the upload's URL and the vendor's token. */
async function vendorLesson(t: TestApp) {
  const vendor = await createVendor(t);
  const token = await vendorToken(t, vendor);
  const product = await createProduct(t, vendor.id, { kind: 'course', amount: 2_900 });
  const call = (route: typeof vr.addCourseModule | typeof vr.addCourseLesson, body: unknown) =>
    t.call(route, { token, params: { productId: product.id }, body });
  const added = await call(vr.addCourseModule, { title: 'Basics' });
  expect(added.statusCode, added.body).toBe(201);
  const moduleId = added.json().course.modules[0].id as string;
  const lesson = await call(vr.addCourseLesson, { moduleId, title: 'Lesson 1' });
  expect(lesson.statusCode, lesson.body).toBe(201);
  const lessonId = lesson.json().lessonId as string;
  const videoKey = async () =>
    (
      await t.database.db.execute<{ video_key: string | null }>(
        sql`select video_key from course_lessons where id = ${lessonId}`,
      )
    ).rows[0]!.video_key;
  return {
    token,
    url: `/api/v1/vendor/courses/${product.id}/lessons/${lessonId}/video`,
    videoKey,
  };
}

/** Sends `data` in `pieces` pieces, one every 200 ms; resolves after the last or on close. */
function trickle(conn: RawConnection, data: Buffer, pieces: number): Promise<void> {
  const size = Math.ceil(data.length / pieces);
  return new Promise((resolve) => {
    let at = 0;
    const stop = () => {
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(() => {
      if (at >= data.length || conn.socket.destroyed) return stop();
      conn.write(data.subarray(at, at + size));
      at += size;
    }, 200);
    void conn.closed.then(stop);
  });
}

/** Resolves when the server has parsed the head of a request for `url`. */
function arrival(t: TestApp, url: string): Promise<void> {
  return new Promise((resolve) => {
    const seen = (req: IncomingMessage) => {
      if (req.url !== url) return;
      t.app.server.off('request', seen);
      resolve();
    };
    t.app.server.on('request', seen);
  });
}

describe('with a one-second request timeout', () => {
  let t: TestApp;
  let port: number;
  /** Emits `failed` when storage gives up on a body (it failed before its end). */
  const storage = new EventEmitter();
  beforeAll(async () => {
    t = await startTestApp({
      REQUEST_TIMEOUT_SECONDS: '1',
      UPLOAD_TIMEOUT_SECONDS: '5',
      UPLOADS_PER_ACCOUNT: '1',
      UPLOADS_PER_ADDRESS: '1',
    });
    const real = t.deps.storage;
    t.deps.storage = Object.assign(Object.create(real) as typeof real, {
      putStream: (key: string, body: AsyncIterable<Buffer>, type: string) =>
        real.putStream(key, body, type).catch((err: unknown) => {
          storage.emit('failed');
          throw err;
        }),
    });
    port = await listen(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every file under the storage root. */
  const storedFiles = (dir = path.join(t.config.DATA_DIR, 'files')): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );

  /** A refused upload: 408 in the contract's shape, the connection closed, storage gave up on it. */
  async function expectCut(res: RawResponse, conn: RawConnection, failed: Promise<unknown>) {
    expect(res.status).toBe(408);
    expect(shape(res.body).code).toBe('request_timeout');
    await within(8_000, 'connection closed', conn.closed);
    await within(8_000, 'storage giving up', failed);
  }

  /** Opens a video upload of `mp4` on a raw connection; the caller sends the body. */
  async function openVideoUpload(lesson: { token: string; url: string }) {
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'intro.mp4', type: 'video/mp4', data: mp4 },
    ]);
    const conn = await RawConnection.connect(port);
    conn.write(
      requestHead('POST', lesson.url, {
        authorization: `Bearer ${lesson.token}`,
        'content-type': contentType,
        'content-length': body.length,
      }),
    );
    return { conn, body };
  }

  it('takes a lesson video that trickles in for longer than the request timeout, and keeps it', async () => {
    const lesson = await vendorLesson(t);
    const { conn, body } = await openVideoUpload(lesson);
    try {
      const started = Date.now();
      await trickle(conn, body, 16);
      const res = await within(10_000, 'upload answer', conn.response());
      expect(res.status, res.body).toBe(200);
      expect(Date.now() - started).toBeGreaterThan(2_000);
      const key = await lesson.videoKey();
      expect(key).not.toBeNull();
      expect(storedFiles().some((f) => f.endsWith(key!))).toBe(true);
    } finally {
      conn.destroy();
    }
  });

  it('refuses a lesson video that stops arriving with 408, keeps nothing and frees its slot', async () => {
    const lesson = await vendorLesson(t);
    const files = storedFiles().length;
    const { conn, body } = await openVideoUpload(lesson);
    try {
      const failed = once(storage, 'failed');
      // Past the first 4 KB: storage has started on it.
      conn.write(body.subarray(0, 16 * 1024));
      const res = await within(8_000, 'stalled upload', conn.response());
      expect(res.headers.connection).toBe('close');
      await expectCut(res, conn, failed);
    } finally {
      conn.destroy();
    }
    expect(await lesson.videoKey()).toBeNull();
    expect(storedFiles()).toHaveLength(files);
    // The account's one slot is free again.
    const next = await openVideoUpload(lesson);
    try {
      next.conn.write(next.body);
      const res = await within(10_000, 'next upload', next.conn.response());
      expect(res.status, res.body).toBe(200);
    } finally {
      next.conn.destroy();
    }
  });

  it('cuts a video that keeps arriving slower than the least rate, long before the upload timeout', async () => {
    const lesson = await vendorLesson(t);
    const { conn, body } = await openVideoUpload(lesson);
    try {
      // 100 bytes every 200 ms (500 B/s) never pauses, yet would hold the slot for the 5 s deadline.
      const pieces = Math.ceil(body.length / 100);
      void trickle(conn, body, pieces);
      const res = await within(4_000, 'slow upload answer', conn.response());
      expect(res.status).toBe(408);
      expect(shape(res.body).code).toBe('request_timeout');
    } finally {
      conn.destroy();
    }
    expect(await lesson.videoKey()).toBeNull();
  });

  it('holds one address to its upload slots whatever accounts it uses (the probe filled the process with free accounts)', async () => {
    const [first, second] = [await vendorLesson(t), await vendorLesson(t)];
    const held = new PassThrough();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'intro.mp4', type: 'video/mp4', data: mp4 },
    ]);
    const upload = (lesson: typeof first, payload: Buffer | PassThrough, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: lesson.url,
        headers: {
          authorization: `Bearer ${lesson.token}`,
          'content-type': contentType,
          'content-length': String(body.length),
        },
        payload,
        remoteAddress,
      });
    const pending = upload(first, held, '192.0.2.70');
    held.write(body.subarray(0, 8 * 1024));
    // The first account's upload holds the address's one slot until its body ends.
    await expect.poll(() => t.deps.uploads.underWay()).toBe(1);
    const refused = await upload(second, body, '192.0.2.70');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await upload(second, body, '192.0.2.71');
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    held.end(body.subarray(8 * 1024));
    expect((await pending).statusCode).toBe(200);
  });

  it('refuses a lesson video still arriving after the upload timeout with 408; keeps nothing', async () => {
    const lesson = await vendorLesson(t);
    const files = storedFiles().length;
    const { conn, body } = await openVideoUpload(lesson);
    try {
      const failed = once(storage, 'failed');
      const started = Date.now();
      // 60 pieces: 12 s, past the 5 s the upload may take.
      void trickle(conn, body, 60);
      const res = await within(12_000, 'upload answer', conn.response());
      expect(Date.now() - started).toBeGreaterThan(4_000);
      await expectCut(res, conn, failed);
    } finally {
      conn.destroy();
    }
    expect(await lesson.videoKey()).toBeNull();
    expect(storedFiles()).toHaveLength(files);
  });

  it('answers 408 to a JSON body that trickles in for longer than the request timeout', async () => {
    const body = Buffer.from(
      JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(100) }),
    );
    const conn = await RawConnection.connect(port);
    try {
      conn.write(
        requestHead('POST', '/auth/login', {
          'content-type': 'application/json',
          'content-length': body.length,
        }),
      );
      // Two bytes every 200 ms: 12 s for the whole body.
      void trickle(conn, body, body.length / 2);
      const res = await within(8_000, 'trickled request', conn.response());
      expect(res.status).toBe(408);
      expect(shape(res.body).code).toBe('request_timeout');
      await within(8_000, 'connection closed', conn.closed);
    } finally {
      conn.destroy();
    }
  });

  it('answers a stalled upload with 408 and closes its connection', async () => {
    const token = await tokenFor(t);
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'a.png', type: 'image/png', data: Buffer.alloc(32 * 1024, 7) },
    ]);
    const conn = await RawConnection.connect(port);
    try {
      conn.write(
        requestHead('POST', '/api/v1/image-upload?category=avatar', {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': body.length,
        }),
      );
      conn.write(body.subarray(0, 1000));
      const res = await within(8_000, 'stalled upload', conn.response());
      expect(res.status).toBe(408);
      expect(shape(res.body).code).toBe('request_timeout');
      await within(8_000, 'connection closed', conn.closed);
    } finally {
      conn.destroy();
    }
  });

  it('answers a request whose headers never end with 408', async () => {
    const conn = await RawConnection.connect(port);
    try {
      conn.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      const res = await within(8_000, 'stalled head', conn.response());
      expect(res.status).toBe(408);
      expect(shape(res.body).code).toBe('request_timeout');
    } finally {
      conn.destroy();
    }
  });
});

describe('answers before any route runs', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    port = await listen(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    rawRequest(port, requestHead('GET', url, { connection: 'close', ...headers }));

  it('a 100 KB query string: 431 with the error shape', async () => {
    const res = await get(`/api/v1/products/term/search?q=${'a'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(shape(res.body).code).toBe('headers_too_large');
  });

  it('bad percent-encoding in a path: 400 with the error shape', async () => {
    for (const url of ['/api/v1/purchase/session/%', '/api/v1/purchases/buyer/%E0%A4%A']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(shape(res.body).code, url).toBe('bad_request');
    }
  });

  it('a path parameter over the router limit: 414 with the error shape', async () => {
    const res = await get(`/api/v1/purchases/buyer/${'a'.repeat(500)}`);
    expect(res.status).toBe(414);
    expect(shape(res.body).code).toBe('uri_too_long');
  });

  it('a request that is not HTTP: 400 with the error shape', async () => {
    const res = await rawRequest(port, 'HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(shape(res.body).code).toBe('bad_request');
  });

  it('a byte range past the end of a file: 416 with the error shape', async () => {
    await t.deps.storage.put('public/x.pdf', Buffer.from('%PDF-1.4'), 'application/pdf');
    const res = await get('/files/public/x.pdf', { range: 'bytes=100-200' });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */8');
    expect(shape(res.body).code).toBe('range_not_satisfiable');
  });
});

describe('closing', () => {
  let t: TestApp;
  let port: number;
  let release: () => void = () => undefined;
  /** Runs inside close, after the app's own preClose hook has marked it closing. */
  let whileClosing: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    t = await startTestApp(
      { SHUTDOWN_GRACE_SECONDS: '1' },
      {
        beforeReady(app) {
          const held = new Promise<void>((resolve) => (release = resolve));
          app.get('/test/hold', async () => {
            await held;
            return { held: true };
          });
          app.addHook('preClose', () => whileClosing());
        },
      },
    );
    port = await listen(t.app);
  });
  afterAll(async () => {
    release();
    await t?.close();
  });

  it('finishes while an upload is stalled, cutting it after the grace period', async () => {
    // A lesson video: its own deadlines are an hour in all and 30 s of silence, the grace 1 s.
    const { token, url } = await vendorLesson(t);
    const stalled = await RawConnection.connect(port);
    const held = await RawConnection.connect(port);
    try {
      const arrived = arrival(t, url);
      stalled.write(
        requestHead('POST', url, {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': 10_000,
        }) + '--x\r\n',
      );
      await within(5_000, 'upload arrival', arrived);

      // A request in flight when closing starts; another arrives on its connection meanwhile.
      const holding = arrival(t, '/test/hold');
      held.write(requestHead('GET', '/test/hold'));
      await within(5_000, 'hold arrival', holding);
      whileClosing = async () => {
        const second = arrival(t, '/healthz');
        held.write(requestHead('GET', '/healthz', { connection: 'close' }));
        await within(5_000, 'second arrival', second);
        release();
      };

      await within(8_000, 'app.close()', t.app.close());
      await within(2_000, 'stalled upload cut off', stalled.closed);

      // The held request finished; the one behind it was refused in the contract's shape.
      expect((await within(2_000, 'held answer', held.response())).status).toBe(200);
      const refused = await within(2_000, 'second answer', held.response());
      expect(refused.status).toBe(503);
      expect(shape(refused.body).code).toBe('service_unavailable');
    } finally {
      stalled.destroy();
      held.destroy();
    }
  });
});
