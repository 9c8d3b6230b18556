import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * The search functions, triggers and vocabulary live in one file, search.sql, applied by the migrator
 * after the journal whenever it changed (a repeatable migration, ADR 068): no migration holds a copy.
 */
export const searchSqlPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'search.sql');

export const readSearchSql = () => readFileSync(searchSqlPath, 'utf8');

/**
 * The line that ends the part of search.sql that builds the index (postings, lexicon, vocabulary and
 * their triggers). A change above it rebuilds every catalogue's index; below it (how queries read the
 * index), it does not.
 */
export const INDEX_PART_END = '-- End of indexing: nothing below changes what is posted.';

/** Names and bodies (the text between `$$`) of the functions a search.sql defines, in order. */
export function searchFunctions(source: string): Array<{ name: string; body: string }> {
  const found: Array<{ name: string; body: string }> = [];
  const re = /CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?\$\$([\s\S]*?)\$\$/g;
  for (const m of source.matchAll(re)) found.push({ name: m[1]!, body: m[2]! });
  return found;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The part of a search.sql above `INDEX_PART_END`. */
function indexPart(source: string): string {
  const at = source.indexOf(`\n${INDEX_PART_END}\n`);
  if (at < 0) throw new Error(`search.sql has no line "${INDEX_PART_END}"`);
  return source.slice(0, at);
}

// The index is derived data: emptied and posted again from the active products, in batches so a large
// catalogue never becomes one array in memory.
const REBUILD_INDEX = [
  'DELETE FROM search_postings',
  'DELETE FROM search_lexicon',
  'DELETE FROM search_terms',
  `DO $$
DECLARE
  after text := '';
  batch products[];
BEGIN
  LOOP
    batch := array(SELECT p FROM products p WHERE p.is_active AND p.id > after ORDER BY p.id LIMIT 5000);
    EXIT WHEN cardinality(batch) = 0;
    PERFORM tradeshelf_search_add(batch);
    after := batch[cardinality(batch)].id;
  END LOOP;
END $$`,
];

export type SearchSqlOutcome = 'unchanged' | 'applied' | 'reindexed';

/**
 * Brings a migrated database's search SQL to `source` (search.sql), in one transaction: when it
 * differs from what was applied last, every function it defined then or defines now is dropped with
 * CASCADE (a signature may change; search.sql re-creates the triggers that takes), search.sql runs,
 * and when its indexing part changed, or the database never applied it here, the index is rebuilt.
 * The migrator calls it under its start lock, so nodes started together apply it once.
 */
export async function applySearchSql(
  db: Db,
  source: string = readSearchSql(),
): Promise<SearchSqlOutcome> {
  const sourceSha = sha256(source);
  const indexSha = sha256(indexPart(source));
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      source_sha256: string;
      index_sha256: string;
      function_names: string[];
    }>(sql`select source_sha256, index_sha256, function_names from search_sql_applied`);
    const last = rows[0];
    if (last?.source_sha256 === sourceSha) return 'unchanged';
    const names = searchFunctions(source).map((f) => f.name);
    for (const name of new Set([...(last?.function_names ?? []), ...names])) {
      // Names come from `\w+` matches: nothing to quote.
      await tx.execute(sql.raw(`DROP FUNCTION IF EXISTS ${name} CASCADE`));
    }
    for (const statement of source.split('--> statement-breakpoint')) {
      if (statement.trim()) await tx.execute(sql.raw(statement));
    }
    const rebuild = last?.index_sha256 !== indexSha;
    if (rebuild) for (const statement of REBUILD_INDEX) await tx.execute(sql.raw(statement));
    await tx.execute(sql`insert into search_sql_applied (id, source_sha256, index_sha256, function_names)
      values (true, ${sourceSha}, ${indexSha}, ${`{${names.join(',')}}`}::text[])
      on conflict (id) do update set source_sha256 = excluded.source_sha256,
        index_sha256 = excluded.index_sha256, function_names = excluded.function_names,
        applied_at = now()`);
    return rebuild ? 'reindexed' : 'applied';
  });
}
