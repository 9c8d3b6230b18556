export type AppEnv = 'local' | 'sandbox' | 'production';

export interface EnvConfig {
  env: AppEnv;
  /**
   * API origin; '' means the origin the page came from. The API process serves the pages on every
   * host below, so each environment calls its own origin (the API sends no CORS headers). A full
   * origin here would split pages and API, and the API would then need CORS for this host.
   */
  apiBase: string;
}

/** Host → environment. Host names live only in this table: the UI never shows them. */
export const HOSTS: Readonly<Record<string, EnvConfig>> = {
  localhost: { env: 'local', apiBase: '' },
  '127.0.0.1': { env: 'local', apiBase: '' },
  '[::1]': { env: 'local', apiBase: '' },
  'sandbox.tradeshelf.app': { env: 'sandbox', apiBase: '' },
  'tradeshelf.app': { env: 'production', apiBase: '' },
  'www.tradeshelf.app': { env: 'production', apiBase: '' },
};

/** Unknown hosts are production on the same origin. */
export const FALLBACK: EnvConfig = { env: 'production', apiBase: '' };

export function configForHost(hostname: string): EnvConfig {
  return HOSTS[hostname.toLowerCase()] ?? FALLBACK;
}

/** From `window.location` in the browser; the fallback on the server. */
export function currentConfig(): EnvConfig {
  return typeof window === 'undefined' ? FALLBACK : configForHost(window.location.hostname);
}
