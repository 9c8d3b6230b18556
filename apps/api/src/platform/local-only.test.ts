import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../test/harness.ts';
import { loadConfig } from '../config.ts';
import { localOnly } from './local-only.ts';
import { productionEnv } from '../../test/production-env.ts';

const t = useTestApp();

const notFound = (url: string) => ({ error: `No route for GET ${url}.`, code: 'not_found' });
const mail = (remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: '/dev/mail', remoteAddress, headers });

describe('/dev/mail (every reset and activation code) in local', () => {
  it('is served to loopback callers', async () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      const res = await mail(address);
      expect(res.statusCode, address).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('answers any other caller 404, in the error shape, as if it did not exist', async () => {
    for (const address of ['192.0.2.7', '10.0.0.1', '::ffff:192.0.2.7', 'fd00::5', '0.0.0.0']) {
      const res = await mail(address);
      expect(res.statusCode, address).toBe(404);
      expect(res.json()).toEqual(notFound('/dev/mail'));
    }
  });

  it('trusts the socket, not forwarding headers: they can only refuse', async () => {
    expect((await mail('192.0.2.7', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(404);
    // A proxy on this machine forwarding someone else's request.
    expect((await mail('127.0.0.1', { 'x-forwarded-for': '192.0.2.7' })).statusCode).toBe(404);
    expect((await mail('127.0.0.1', { forwarded: 'for="[2001:db8::1]:4711"' })).statusCode).toBe(
      404,
    );
    expect((await mail('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, ::1' })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For even when TRUST_PROXY trusts the peer', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: '1' });
    try {
      const res = await proxied.app.inject({
        url: '/dev/mail',
        remoteAddress: '192.0.2.7',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await proxied.close();
    }
  });

  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  it.skipIf(!external)(
    `over real sockets: 200 on loopback, 404 from ${external ?? '(skipped: this machine has no non-loopback IPv4 interface)'}`,
    async () => {
      await t.app.listen({ port: 0, host: '0.0.0.0' });
      const port = (t.app.server.address() as { port: number }).port;
      const get = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request({ host, port, path: '/dev/mail', localAddress: host }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      expect(await get('127.0.0.1')).toBe(200);
      expect(await get(external!)).toBe(404);
    },
  );
});

describe('localOnly outside local', () => {
  it('never serves a guarded route in sandbox, even to loopback', async () => {
    const sandbox = await startTestApp(
      { APP_ENV: 'sandbox' },
      {
        beforeReady: (app) => {
          app.get('/guarded', { onRequest: localOnly(app.deps.config) }, async () => 'secret');
        },
      },
    );
    try {
      const res = await sandbox.app.inject({ url: '/guarded', remoteAddress: '127.0.0.1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound('/guarded'));
      const mailPage = await sandbox.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1' });
      expect(mailPage.statusCode).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});

describe('HOST default', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-host-')) });
  const production = productionEnv;

  it('binds to loopback in local unless HOST says otherwise', () => {
    expect(loadConfig({ ...base() }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ ...base(), APP_ENV: 'local', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('listens on every interface in sandbox and production (behind a load balancer)', () => {
    expect(loadConfig({ ...base(), APP_ENV: 'sandbox' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...base(), ...production }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...base(), ...production, HOST: '10.1.2.3' }).HOST).toBe('10.1.2.3');
  });
});
