import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Real PostgreSQL: server URL and the migrated template database to clone. */
    pgTemplate: { url: string; template: string } | null;
    /** No DATABASE_URL: a migrated PGlite data dir dump each test file loads. */
    pgliteDump: string | null;
  }
}

/** Migrates once; every test file then gets its own copy of the migrated database. */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `tradeshelf_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const db = connectDatabase(target.toString(), 2);
    await runMigrations(db.db);
    await db.close();
    project.provide('pgTemplate', { url, template });
    project.provide('pgliteDump', null);
    return async () => {
      // Test files drop their own copies; sweep any left by a crashed worker, then the template.
      const left = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'tradeshelf_t_${process.pid}_%'`,
      );
      for (const row of left.rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }

  const embedded = await startEmbeddedPostgres({});
  const db = connectDatabase(embedded.url, 1);
  await runMigrations(db.db);
  await db.close();
  const dump = await embedded.pglite.dumpDataDir('none');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-pglite-'));
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await embedded.stop();
  project.provide('pgTemplate', null);
  project.provide('pgliteDump', file);
  // 45 MB per run: removed when the run ends.
  return () => rmSync(dir, { recursive: true, force: true });
}
