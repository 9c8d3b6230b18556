import { vendorStorefrontRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../test/factories/catalog.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { ensureWebBuild } from '../../test/web-build.ts';
import { pageReads } from '../page-reads.ts';
import { inProcessCaller, loadWebApp } from '../platform/web.ts';
import { databaseUnavailableCause } from './unavailable.ts';

/*
 * Probe of issue 19: the database refusing new sessions (`ALTER DATABASE … ALLOW_CONNECTIONS false`,
 * a maintenance step, answers SQLSTATE 55000 "database … is not currently accepting connections")
 * during a burst of vendor writes made every request a 500 `internal` with an error logged, where a
 * stopped database makes a 503 the client may retry. A FATAL error ends the session whatever its code.
 */

function fatal(code: string, message: string): pg.DatabaseError {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.severity = 'FATAL';
  err.code = code;
  return err;
}

describe('a database that ends or refuses the session', () => {
  it('is unavailable (503), not a bug, whatever the FATAL error’s code', () => {
    const refused = fatal('55000', 'database "shop" is not currently accepting connections');
    // Drizzle wraps driver errors.
    const wrapped = Object.assign(new Error('Failed query: select 1'), { cause: refused });
    expect(databaseUnavailableCause(wrapped)).toBe(refused);
    expect(databaseUnavailableCause(fatal('3D000', 'database "shop" does not exist'))).not.toBe(
      null,
    );
  });

  it('leaves a query’s own errors alone', () => {
    const bad = new pg.DatabaseError('relation "nope" does not exist', 30, 'error');
    bad.severity = 'ERROR';
    bad.code = '42P01';
    expect(databaseUnavailableCause(bad)).toBe(null);
    const plain = new pg.DatabaseError('currval of sequence is not yet defined', 30, 'error');
    plain.severity = 'ERROR';
    plain.code = '55000';
    expect(databaseUnavailableCause(plain)).toBe(null);
  });
});

const admin = process.env.DATABASE_URL;
let t: TestApp | undefined;
let withPages: TestApp | undefined;
afterAll(async () => {
  await t?.close();
  await withPages?.close();
});

/** Runs `during` while the test app's database refuses new sessions (and its own are ended). */
async function whileRefusing(app: TestApp, during: () => Promise<void>) {
  const name = (
    await app.database.db.execute<{ name: string }>(sql`select current_database() as name`)
  ).rows[0]!.name;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`alter database "${name}" allow_connections false`);
    await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    await during();
  } finally {
    await client.query(`alter database "${name}" allow_connections true`);
    await client.end();
  }
}

describe.skipIf(!admin)('on PostgreSQL', () => {
  it('answers 503 with Retry-After while the database refuses connections, and recovers', async () => {
    t = await startTestApp();
    const vendor = await createVendor(t);
    const token = await t.deps.tokens.sign({
      sub: vendor.userId,
      email: 'v@x.test',
      roles: ['buyer', 'vendor'],
    });
    const read = () => t!.call(vendorStorefrontRoutes.vendorStorefront, { token });
    expect((await read()).statusCode).toBe(200);
    await whileRefusing(t, async () => {
      for (let i = 0; i < 3; i++) {
        const res = await read();
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'service_unavailable' });
        expect(res.headers['retry-after']).toBeDefined();
      }
    });
    expect((await read()).statusCode).toBe(200);
  });

  it('a public page answers 503 with Retry-After, not a 500, and renders again after', async () => {
    const buildDir = ensureWebBuild();
    withPages = await startTestApp(
      {},
      {
        web: (app) =>
          loadWebApp(buildDir, inProcessCaller(app, pageReads), { pageCacheSeconds: 0 }),
      },
    );
    const vendor = await createVendor(withPages);
    const product = await createProduct(withPages, vendor.id, { title: 'Outage Oscillator' });
    const url = `/p/${product.id}/outage-oscillator`;
    const page = () => withPages!.app.inject({ method: 'GET', url });
    await whileRefusing(withPages, async () => {
      const res = await page();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Something went wrong');
      expect(res.body).not.toMatch(/at \w+ \(|node_modules|DatabaseError/);
    });
    const back = await page();
    expect([200, 301]).toContain(back.statusCode);
  }, 300_000);
});
