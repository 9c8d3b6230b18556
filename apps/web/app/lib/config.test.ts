import { afterEach, describe, expect, it, vi } from 'vitest';
import { configForHost, currentConfig, FALLBACK, HOSTS } from './config.ts';

describe('environment by host', () => {
  it('maps local hosts to local on the same origin', () => {
    expect(configForHost('localhost')).toEqual({ env: 'local', apiBase: '' });
    expect(configForHost('127.0.0.1')).toEqual({ env: 'local', apiBase: '' });
  });

  it('maps the sandbox and production hosts, case-insensitively', () => {
    expect(configForHost('sandbox.tradeshelf.app').env).toBe('sandbox');
    expect(configForHost('TRADESHELF.APP').env).toBe('production');
    expect(configForHost('www.tradeshelf.app').env).toBe('production');
  });

  it('falls back to production on the same origin for unknown hosts', () => {
    expect(configForHost('preview-123.example.net')).toEqual({ env: 'production', apiBase: '' });
    expect(configForHost('sandbox.tradeshelf.app.evil.test').env).toBe('production');
    expect(configForHost('')).toEqual({ env: 'production', apiBase: '' });
  });

  it('calls the API on the page origin for every host, as the CSP of pages allows (ADR 022)', () => {
    // `connect-src 'self'`: a full origin here needs that origin in the policy (and CORS).
    for (const config of [...Object.values(HOSTS), FALLBACK]) expect(config.apiBase).toBe('');
  });
});

describe('currentConfig', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is production on the same origin on the server (no window)', () => {
    expect(currentConfig()).toEqual({ env: 'production', apiBase: '' });
  });

  it('reads window.location.hostname in the browser', () => {
    vi.stubGlobal('window', { location: { hostname: 'localhost' } });
    expect(currentConfig().env).toBe('local');
    vi.stubGlobal('window', { location: { hostname: 'sandbox.tradeshelf.app' } });
    expect(currentConfig().env).toBe('sandbox');
  });
});
