import type { IncomingMessage } from 'node:http';
import { apiErrorSchema, authRoutes } from '@tradeshelf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import {
  listen,
  multipartBody,
  RawConnection,
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
  beforeAll(async () => {
    t = await startTestApp({ REQUEST_TIMEOUT_SECONDS: '1' });
    port = await listen(t.app);
  });
  afterAll(async () => {
    await t?.close();
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
    const token = await tokenFor(t);
    const url = '/api/v1/image-upload?category=avatar';
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
