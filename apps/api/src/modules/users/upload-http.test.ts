import { apiErrorSchema, authRoutes, usersRoutes } from '@tradeshelf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';
import {
  listen,
  multipartBody,
  RawConnection,
  rawRequest,
  requestHead,
  within,
} from '../../../test/http.ts';

/** Issue 13: uploads over real HTTP, where a stalled multipart stream shows as a hang. */

const t = useTestApp();
let port: number;
beforeAll(async () => {
  port = await listen(t.app);
});

// A valid 2×2 PNG (the pipeline decodes every upload whole).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000000970485973000003e8000003e801b57b526b0000001149444154789c63d0bdb2ff3f0833c018005e2c0afd529e399e0000000049454e44ae426082',
  'hex',
);
const URL_AVATAR = '/api/v1/image-upload?category=avatar';

async function tokenFor(): Promise<string> {
  const user = await createUser(t);
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  return res.json().token as string;
}

function uploadRequest(token: string, body: Buffer, contentType: string): string | Buffer {
  return Buffer.concat([
    Buffer.from(
      requestHead('POST', URL_AVATAR, {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'content-length': body.length,
        connection: 'close',
      }),
    ),
    body,
  ]);
}

const otherField = () =>
  multipartBody([{ name: 'other', filename: 'a.png', type: 'image/png', data: PNG }]);

describe('image upload over HTTP', () => {
  it('answers an upload whose file part is not named `file`', async () => {
    const token = await tokenFor();
    const { body, contentType } = otherField();
    const res = await rawRequest(port, uploadRequest(token, body, contentType));
    expect(res.status).toBe(400);
    const error = apiErrorSchema.parse(JSON.parse(res.body));
    expect(error.code).toBe('validation_failed');
    expect(error.fields?.file).toBeTruthy();
  });

  it('answers 40 such uploads at once; past the hourly limit with 429 and Retry-After', async () => {
    const token = await tokenFor();
    const { body, contentType } = otherField();
    const answers = await within(
      20_000,
      '40 uploads',
      Promise.all(
        Array.from({ length: 40 }, () => rawRequest(port, uploadRequest(token, body, contentType))),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const a of answers) {
      const error = apiErrorSchema.parse(JSON.parse(a.body));
      if (a.status === 429) {
        expect(error.code).toBe('rate_limited');
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
  });

  it('checks the hourly limit before reading the body', async () => {
    const token = await tokenFor();
    for (let i = 0; i < 20; i++) {
      const { body, contentType } = multipartBody([
        { name: 'file', filename: 'a.png', type: 'image/png', data: PNG },
      ]);
      const ok = await t.app.inject({
        method: 'POST',
        url: URL_AVATAR,
        payload: body,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      });
      expect(ok.statusCode).toBe(200);
    }
    // The 21st sends its head and half its body, then waits: the answer must not wait for the rest.
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'a.png', type: 'image/png', data: Buffer.alloc(64 * 1024, 1) },
    ]);
    const conn = await RawConnection.connect(port);
    try {
      conn.write(
        requestHead('POST', URL_AVATAR, {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': body.length,
        }),
      );
      conn.write(body.subarray(0, body.length / 2));
      const res = await within(10_000, 'limited upload', conn.response());
      expect(res.status).toBe(429);
      expect(apiErrorSchema.parse(JSON.parse(res.body)).code).toBe('rate_limited');
    } finally {
      conn.destroy();
    }
  });

  it('refuses a body declared larger than any upload before reading it', async () => {
    const token = await tokenFor();
    const conn = await RawConnection.connect(port);
    try {
      conn.write(
        requestHead('POST', URL_AVATAR, {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': 50 * 1024 * 1024,
        }),
      );
      const res = await within(10_000, 'oversized upload', conn.response());
      expect(res.status).toBe(413);
      expect(apiErrorSchema.parse(JSON.parse(res.body)).code).toBe('payload_too_large');
    } finally {
      conn.destroy();
    }
  });

  it('answers malformed multipart with 400 and the error shape', async () => {
    const token = await tokenFor();
    const whole = multipartBody(
      [{ name: 'file', filename: 'a.png', type: 'image/png', data: PNG }],
      'b0undary',
    );
    const cases: Array<[string, Buffer, string]> = [
      // No closing boundary: the body ends inside the file part.
      ['unterminated', whole.body.subarray(0, whole.body.length - 14), whole.contentType],
      ['no boundary parameter', whole.body, 'multipart/form-data'],
      ['not multipart at all', Buffer.from('hello there'), whole.contentType],
    ];
    for (const [name, body, contentType] of cases) {
      const res = await rawRequest(port, uploadRequest(token, body, contentType));
      expect(res.status, name).toBe(400);
      expect(apiErrorSchema.parse(JSON.parse(res.body)).code, name).toBe('bad_request');
    }
    // None of them changed the profile.
    const profile = await t.call(usersRoutes.getProfile, { token });
    expect(profile.json().user.avatarUrl).toBeNull();
  });
});
