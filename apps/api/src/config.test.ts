import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SHARED_SECRETS } from './config.ts';
import { checkStorage } from './deps.ts';
import { publicOrigin } from './platform/origin.ts';
import { productionEnv } from '../test/production-env.ts';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-config-'));

/** A production configuration that loads; each test changes one thing. */
const production = () => ({ DATA_DIR: dataDir(), ...productionEnv });

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  return [];
}

describe('TRUST_PROXY (ADR 049)', () => {
  it('is off by default and takes a hop count or the proxies’ addresses', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(
      loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8,loopback' })
        .TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
  });

  it('refuses `true`, which would believe the address the client writes, saying what to give', () => {
    const [problem] = problems({ DATA_DIR: dataDir(), TRUST_PROXY: 'true' });
    expect(problem).toMatch(/^TRUST_PROXY: .*X-Forwarded-For.*number of proxies.*CIDR/);
  });

  it('refuses anything that is not a count, an address or a CIDR', () => {
    for (const value of ['yes', '10.0.0.0/33', '10.0.0.1, nonsense', '11', '-1'])
      expect(problems({ DATA_DIR: dataDir(), TRUST_PROXY: value }), value).toEqual([
        expect.stringMatching(/^TRUST_PROXY: /),
      ]);
  });

  it('refuses ranges so wide they trust every peer (the outside probe: /1 halves passed, /0 crashed)', () => {
    for (const value of [
      '0.0.0.0/1,128.0.0.0/1',
      '0.0.0.0/0',
      '::/0',
      '::/1,8000::/1',
      '10.0.0.0/7',
    ])
      expect(problems({ DATA_DIR: dataDir(), TRUST_PROXY: value }), value).toEqual([
        expect.stringMatching(/^TRUST_PROXY: .*\/8 \(IPv6 \/7\) or narrower/),
      ]);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'fc00::/7' }).TRUST_PROXY).toEqual([
      'fc00::/7',
    ]);
  });
});

describe('PUBLIC_URL (ADR 049)', () => {
  it('is required in production', () => {
    const { PUBLIC_URL: _, ...env } = production();
    expect(problems(env)).toEqual([expect.stringMatching(/^PUBLIC_URL: required in production/)]);
    expect(problems(production())).toEqual([]);
  });

  it('is the public origin; elsewhere it defaults to what `npm start` prints', () => {
    expect(publicOrigin(loadConfig(production()))).toBe('https://tradeshelf.example');
    expect(publicOrigin(loadConfig({ DATA_DIR: dataDir(), PORT: '4100' }))).toBe(
      'http://localhost:4100',
    );
  });
});

describe('LOG_LEVEL (issue 27)', () => {
  it('is warn locally with JSON logs, so `npm start` piped shows the banner rather than JSON per request', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_FORMAT: 'json' }).LOG_LEVEL).toBe('warn');
  });

  it('is info locally with readable logs, whose request lines are short (issue 32)', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_FORMAT: 'pretty' }).LOG_LEVEL).toBe('info');
  });

  it('is info in sandbox and production, where requests stay logged', () => {
    expect(loadConfig(production()).LOG_LEVEL).toBe('info');
    expect(loadConfig({ DATA_DIR: dataDir(), APP_ENV: 'sandbox' }).LOG_LEVEL).toBe('info');
  });

  it('is what it is set to, anywhere', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('debug');
    expect(loadConfig({ ...production(), LOG_LEVEL: 'warn' }).LOG_LEVEL).toBe('warn');
    expect(problems({ DATA_DIR: dataDir(), LOG_LEVEL: 'loud' })).toEqual([
      expect.stringMatching(/^LOG_LEVEL: /),
    ]);
  });
});

describe('LOG_FORMAT and METRICS_TOKEN (issue 32)', () => {
  it('logs JSON in production unless told otherwise', () => {
    expect(loadConfig(production()).LOG_FORMAT).toBe('json');
    expect(loadConfig({ ...production(), LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(problems({ DATA_DIR: dataDir(), LOG_FORMAT: 'loud' })).toEqual([
      expect.stringMatching(/^LOG_FORMAT: /),
    ]);
  });

  it('refuses a short metrics token', () => {
    expect(problems({ DATA_DIR: dataDir(), METRICS_TOKEN: 'short' })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: /),
    ]);
  });
});

describe('secrets (ADR 049)', () => {
  it('refuses a secret of 32 identical or alternating characters, naming it', () => {
    for (const weak of ['a'.repeat(32), 'ab'.repeat(16), '0'.repeat(64)]) {
      const found = problems({ ...production(), JWT_SECRET: weak, CODE_SECRET: weak });
      expect(found, weak).toEqual([
        expect.stringMatching(/^JWT_SECRET: too predictable .*openssl rand/),
        expect.stringMatching(/^CODE_SECRET: too predictable/),
      ]);
    }
    // Outside production too: a sandbox is public.
    expect(problems({ DATA_DIR: dataDir(), STORAGE_SECRET: 'x'.repeat(40) })).toEqual([
      expect.stringMatching(/^STORAGE_SECRET: too predictable/),
    ]);
  });

  it('takes random ones, hex or base64', () => {
    expect(
      problems({
        ...production(),
        JWT_SECRET: '9f86d081884c7d659a2feaa0c55ad015',
        CODE_SECRET: 'n4bQgYhMLSqzRnLGe3kjV1tD8d3kR0m2uFp7XwIvC5o=',
      }),
    ).toEqual([]);
  });
});

describe('secrets every node shares (issue 32)', () => {
  it('refuses a production node started without any of them, naming each', () => {
    expect([...SHARED_SECRETS]).toEqual(['JWT_SECRET', 'CODE_SECRET', 'STORAGE_SECRET']);
    for (const name of SHARED_SECRETS) {
      const { [name]: _, ...without } = production();
      expect(problems(without), name).toEqual([
        `${name}: required in production (every node shares it; see SHARED_SECRETS in config.ts)`,
      ]);
    }
  });

  it('refuses a sandbox node on a database server without them, rather than minting its own', () => {
    const node = { DATA_DIR: dataDir(), APP_ENV: 'sandbox', DATABASE_URL: 'postgres://db/x' };
    expect(problems(node)).toEqual(
      SHARED_SECRETS.map(
        (n) =>
          `${n}: required with DATABASE_URL outside local (every node shares it; see SHARED_SECRETS in config.ts)`,
      ),
    );
    const given = Object.fromEntries(SHARED_SECRETS.map((n) => [n, productionEnv[n]]));
    expect(problems({ ...node, ...given })).toEqual([]);
    // One machine's local run still keeps generated ones in DATA_DIR.
    expect(problems({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://db/x' })).toEqual([]);
  });

  it('takes DATABASE_READ_URL only beside DATABASE_URL', () => {
    expect(problems({ DATA_DIR: dataDir(), DATABASE_READ_URL: 'postgres://replica/x' })).toEqual([
      'DATABASE_READ_URL: needs DATABASE_URL (the primary every write goes to)',
    ]);
    const config = loadConfig({ ...production(), DATABASE_READ_URL: 'postgres://replica/x' });
    expect(config.DATABASE_READ_URL).toBe('postgres://replica/x');
    expect([
      config.DATABASE_POOL_SIZE,
      config.DATABASE_READ_POOL_SIZE,
      config.JOBS_POOL_SIZE,
    ]).toEqual([10, 10, 4]);
  });
});

describe('S3 credentials at start (ADR 049)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  /** The SDK's chain finds nothing: no variables, no shared files, no instance metadata. */
  const noCredentials = () => {
    for (const name of Object.keys(process.env))
      if (name.startsWith('AWS_') && name !== 'AWS_CA_BUNDLE') delete process.env[name];
    process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(dataDir(), 'none');
    process.env.AWS_CONFIG_FILE = path.join(dataDir(), 'none');
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
  };

  it('refuses S3 storage without credentials, saying what to set', async () => {
    noCredentials();
    const config = loadConfig(production());
    await expect(checkStorage(config, 3000)).rejects.toThrow(ConfigError);
    await expect(checkStorage(config, 3000)).rejects.toThrow(
      /STORAGE_DRIVER=s3: no AWS credentials .*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
  });

  it('starts with credentials in the environment, and does not look for local storage', async () => {
    noCredentials();
    process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEEXAMPLE00';
    process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    await expect(checkStorage(loadConfig(production()), 3000)).resolves.toBeUndefined();
    delete process.env.AWS_ACCESS_KEY_ID;
    await expect(
      checkStorage(loadConfig({ DATA_DIR: dataDir(), STORAGE_DRIVER: 'local' }), 3000),
    ).resolves.toBeUndefined();
  });
});

describe('Stripe: one adapter, its sandbox outside production (ADR 055)', () => {
  it('reaches the app’s own sandbox locally with the well-known test keys', () => {
    const cfg = loadConfig({ DATA_DIR: dataDir(), PORT: '4100' });
    expect(cfg).toMatchObject({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SANDBOX: true,
      STRIPE_API_URL: 'http://127.0.0.1:4100',
      STRIPE_SECRET_KEY: 'sk_test_tradeshelf_sandbox_local',
    });
  });

  it('gives a public sandbox keys of its own, the same on every node sharing CODE_SECRET', () => {
    const env = {
      APP_ENV: 'sandbox',
      PUBLIC_URL: 'https://sandbox.tradeshelf.example',
      CODE_SECRET: 'q8Xr2vLm9TzK4pWn7YbHs3JdFc6GaUe5',
    };
    const a = loadConfig({ DATA_DIR: dataDir(), ...env });
    const b = loadConfig({ DATA_DIR: dataDir(), ...env });
    expect(a.STRIPE_SANDBOX).toBe(true);
    expect(a.STRIPE_API_URL).toBe('https://sandbox.tradeshelf.example');
    expect(a.STRIPE_SECRET_KEY).toMatch(/^sk_test_[\w-]{43}$/);
    expect(a.STRIPE_SECRET_KEY).not.toBe('sk_test_tradeshelf_sandbox_local');
    expect(a.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
    expect([b.STRIPE_SECRET_KEY, b.STRIPE_WEBHOOK_SECRET]).toEqual([
      a.STRIPE_SECRET_KEY,
      a.STRIPE_WEBHOOK_SECRET,
    ]);
  });

  it('needs Stripe’s keys where Stripe itself is reached, and no other provider', () => {
    expect(
      problems({
        DATA_DIR: dataDir(),
        APP_ENV: 'sandbox',
        STRIPE_API_URL: 'https://api.stripe.com',
      }),
    ).toEqual([
      'STRIPE_SECRET_KEY: required when Stripe itself is reached',
      'STRIPE_WEBHOOK_SECRET: required when Stripe itself is reached',
    ]);
    const { STRIPE_SECRET_KEY: _k, ...withoutKey } = production();
    expect(problems(withoutKey)).toEqual([
      'STRIPE_SECRET_KEY: required when Stripe itself is reached',
    ]);
    expect(problems({ DATA_DIR: dataDir(), PAYMENTS_PROVIDER: 'sandbox' })).toEqual([
      expect.stringMatching(/^PAYMENTS_PROVIDER: must be stripe/),
    ]);
    expect(loadConfig(production()).STRIPE_SANDBOX).toBe(false);
  });
});
