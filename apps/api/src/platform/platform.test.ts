import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.ts';
import { ConfigError, loadConfig } from '../config.ts';

const t = useTestApp();

describe('platform', () => {
  it('reports liveness and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', rateLimitStore: 'memory' });
  });

  it('echoes a valid request id and makes one up otherwise', async () => {
    const a = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(a.headers['x-request-id']).toBe('abc-123');
    const b = await t.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes OpenAPI 3.1 with every contract path', async () => {
    const res = await t.app.inject('/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/auth/login',
      '/auth/signup/buyer',
      '/refresh_token',
      '/api/v1/password/reset-request',
      '/api/v1/user/profile',
      '/api/v1/user/role/vendor',
      '/api/v1/image-upload',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect((await t.app.inject('/docs')).statusCode).toBeLessThan(400);
  });

  it('answers unknown API paths with the error shape', async () => {
    const res = await t.app.inject('/api/v1/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No route for GET /api/v1/nope.', code: 'not_found' });
  });

  it('serves private files only with a valid, unexpired signature (else 403)', async () => {
    await t.deps.storage.put('private/doc.pdf', Buffer.from('%PDF-1.4 hello'), 'application/pdf');
    const unsigned = await t.app.inject('/files/private/doc.pdf');
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json().code).toBe('forbidden');
    const { url } = await t.deps.storage.signedUrl('private/doc.pdf', 60);
    const ok = await t.app.inject(url);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('%PDF-1.4 hello');
    const ranged = await t.app.inject({ url, headers: { range: 'bytes=0-3' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.body).toBe('%PDF');
    // A broken download resumes from where it stopped while the file is the same one.
    const etag = ok.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(ok.headers['last-modified']).toBeTruthy();
    const resumed = await t.app.inject({ url, headers: { range: 'bytes=5-', 'if-range': etag } });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.headers['content-range']).toBe('bytes 5-13/14');
    expect(resumed.body).toBe('1.4 hello');
    // Since changed (another validator): the whole file, not a part of a different one.
    const changed = await t.app.inject({
      url,
      headers: { range: 'bytes=5-', 'if-range': '"0-0"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe('%PDF-1.4 hello');
    expect((await t.app.inject(url.replace(/sig=[0-9a-f]{4}/, 'sig=0000'))).statusCode).toBe(403);
    // Dot segments are resolved before routing: this asks for the private file, unsigned.
    expect((await t.app.inject('/files/public/../private/doc.pdf')).statusCode).toBe(403);
  });

  it('lists every configuration problem at once and demands secrets in production', () => {
    expect(() => loadConfig({ PORT: 'abc', APP_ENV: 'staging' })).toThrow(ConfigError);
    try {
      loadConfig({ APP_ENV: 'production' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of [
        'JWT_SECRET',
        'CODE_SECRET',
        'STORAGE_SECRET',
        'DATABASE_URL',
        'SMTP_URL',
      ])
        expect(problems).toContain(name);
      return;
    }
    throw new Error('expected a ConfigError');
  });
});
