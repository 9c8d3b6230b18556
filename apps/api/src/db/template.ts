import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { readSearchSql } from '../modules/catalog/search-sql.ts';
import { migrationsFolder } from './migrate.ts';

/**
 * A freshly migrated embedded database, kept so the next empty data directory (every e2e run, a
 * second `npm start` with a new DATA_DIR) unpacks it instead of running initdb and every migration
 * again: ~21 s of a start on the shared 2-core machine, ~8 s unpacked. Keyed by the migrations,
 * search.sql (ADR 068) and the PGlite release, so a new migration or upgrade makes a new one. In the
 * git-ignored `.cache/` beside the demo pictures (ADR 026), so it survives `npm ci`.
 */
const CACHE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../.cache/tradeshelf/pglite',
);

function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite') return pkg.version ?? '';
  }
  return '';
}

function templateFile(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const file = path.join(migrationsFolder, name);
    if (name.endsWith('.sql') || name.endsWith('.json'))
      hash.update(name).update(readFileSync(file));
  }
  hash.update('search.sql').update(readSearchSql());
  return path.join(CACHE_DIR, `${hash.digest('hex').slice(0, 16)}.tar`);
}

/** True when `dataDir` holds no database yet. */
export function isEmptyDataDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

/** The migrated template for these migrations, if one was kept. */
export function readTemplate(): Blob | null {
  const file = templateFile();
  return existsSync(file) ? new Blob([readFileSync(file)]) : null;
}

/** Keeps the database as it stands (just migrated, nothing seeded) for the next empty data dir. */
export async function keepTemplate(pglite: PGlite): Promise<void> {
  const file = templateFile();
  const dump = await pglite.dumpDataDir('none');
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written aside then renamed: a start that reads it never sees half a file.
  const part = `${file}.${randomUUID()}.part`;
  writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  renameSync(part, file);
}
