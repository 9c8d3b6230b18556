import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { SMTP_PORT } from './e2e/mailbox.ts';
import { QUIET_CHROMIUM_FLAGS } from './scripts/chromium-flags.ts';

const PORT = Number(process.env.E2E_PORT ?? 3100);
// One browser per core beside the one server; past 4 the server, not the browsers, is the limit.
const WORKERS = Number(process.env.E2E_WORKERS) || Math.min(availableParallelism(), 4);
// CI points the server at PostgreSQL (a database of its own, emptied each run): the embedded
// database runs every statement on the server's one thread, which made the server the suite's limit.
// Unset, the server takes `npm start`'s path: embedded PostgreSQL in a fresh data dir.
const PG_SERVER = process.env.E2E_DATABASE_URL;
// Debian's old headless shell (package chromium-headless-shell), the build Playwright itself runs
// headless tests in: the same Blink and V8 without the full browser's UI, GPU process and display
// compositor. The same tests used about a third less CPU in it (docs/ci-time.md, session 25); the
// full browser where it is not installed.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const pgDatabase = () => {
  const url = new URL(PG_SERVER!);
  url.pathname = `/tradeshelf_e2e_${PORT}`;
  return url.toString();
};

export default defineConfig({
  testDir: 'e2e',
  // Specs keep to their own accounts or only read the demo ones, so tests spread over workers.
  fullyParallel: true,
  workers: WORKERS,
  // One SMTP capture for the run, read by every worker (e2e/mailbox.ts).
  globalSetup: './e2e/mail-capture.ts',
  retries: 0,
  // CI runs the suite beside `npm test` on two cores: a test of ~27 s on a quiet machine took twice
  // that there. Long walks set their own.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // DOM snapshots of a failing test, without the screencast (48 → 38 s of CPU on three specs).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', ...QUIET_CHROMIUM_FLAGS],
    },
  },
  webServer: {
    // A fresh embedded database each run: the same path `npm start` takes on a new machine.
    command: PG_SERVER
      ? `node --import tsx e2e/fresh-database.ts tradeshelf_e2e_${PORT} && node --import tsx apps/api/src/main.ts`
      : 'rm -rf .data-e2e && node --import tsx apps/api/src/main.ts',
    url: `http://127.0.0.1:${PORT}/readyz`,
    // A first start on a clean clone draws the demo pictures (ADR 026) and keeps a migrated database
    // (apps/api/src/db/template.ts) in .cache/tradeshelf; later starts copy both.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // Links, redirects and canonicals use it, never the Host (ADR 049): the origin the browser uses.
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      // Browsers refuse passkeys on an IP origin: e2e/passkeys.spec.ts walks at localhost.
      PASSKEY_ORIGIN: `http://localhost:${PORT}`,
      DATA_DIR: '.data-e2e',
      APP_ENV: 'local',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      LOG_LEVEL: 'warn',
      DATABASE_URL: PG_SERVER ? pgDatabase() : '',
      REDIS_URL: '',
      NODE_ENV: 'production',
      // The suite signs up more accounts from loopback than one address may in an hour.
      SIGNUP_LIMIT_PER_IP_HOUR: '100',
      // And logs in more often from it than one address may in 15 minutes.
      LOGIN_LIMIT_PER_IP_15_MINUTES: '300',
      // Every page and search of the suite comes from one address; a person searches far less.
      SEARCH_LIMIT_PER_IP_MINUTE: '10000',
      // e2e/developers.spec.ts delivers webhooks to a receiver on loopback (refused in production).
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
  },
});
