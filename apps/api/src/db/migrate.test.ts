import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';
import { seedAllAtStart } from './seed.ts';

/*
 * Issue 32: every node migrates on start, and compose starts three at once on an empty database.
 * Without a lock two of them would apply the first migration together and one would fail to start.
 */
const url = process.env.DATABASE_URL;

/** A new database of its own for `use`, dropped afterwards. */
async function withNewDatabase(prefix: string, use: (target: string) => Promise<void>) {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(url!);
  target.pathname = `/${name}`;
  try {
    await use(target.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

describe.runIf(Boolean(url))('migrations run by several nodes at once', () => {
  it('are applied once, and every node starts', { timeout: 120_000 }, async () => {
    await withNewDatabase('tradeshelf_mig', async (target) => {
      // One connection each, as the smallest pool that migrates (a test's migrator) has.
      const nodes = [1, 2, 3].map(() => connectDatabase(target, 1));
      try {
        const results = await Promise.allSettled(nodes.map((n) => runMigrations(n.db)));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
          'ok',
          'ok',
          'ok',
        ]);
        const { rows } = await nodes[0]!.pool.query<{ n: number; distinct: number }>(
          `select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
        );
        expect(rows[0]!.n).toBe(rows[0]!.distinct);
        expect(rows[0]!.n).toBeGreaterThan(40);
      } finally {
        await Promise.all(nodes.map((n) => n.close()));
      }
    });
  });
});

describe.runIf(Boolean(url))('demo data seeded by several nodes at once (SEED_DEMO)', () => {
  it('is seeded once, and every node starts', { timeout: 300_000 }, async () => {
    await withNewDatabase('tradeshelf_seed', async (target) => {
      const nodes = [1, 2].map(() => connectDatabase(target, 2));
      try {
        await runMigrations(nodes[0]!.db);
        const results = await Promise.allSettled(nodes.map((n) => seedAllAtStart(n.db)));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
          'ok',
          'ok',
        ]);
        const { rows } = await nodes[0]!.pool.query<{ n: number }>(
          `select count(*)::int as n from users where email = 'vendor@demo.tradeshelf.test'`,
        );
        expect(rows[0]!.n).toBe(1);
      } finally {
        await Promise.all(nodes.map((n) => n.close()));
      }
    });
  });
});
