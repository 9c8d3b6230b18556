import type { PGlite } from '@electric-sql/pglite';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded.ts';

/**
 * One embedded database per test worker, emptied back to its migrated state between test files.
 * Starting PGlite from the migrated dump cost ~1.3 s of CPU per test app (~175 a run); emptying the
 * tables a file wrote costs a tenth of that. A file that changed the schema (an index dropped, a table
 * renamed or created, pg-boss's tables), left a transaction open or failed to empty gets the database
 * stopped, and the next file a fresh one, as before.
 */

/** The migrated state, read once when the database starts. */
interface Clean {
  /** A digest of the schema: relations, columns, constraints, functions, triggers, roles. */
  schema: string;
  tables: string[];
  /** Tables the migrations filled, with their rows and a digest of them. */
  seeded: Map<string, { digest: string; columns: string[]; rows: string; identity: boolean }>;
  /** For each table, the tables whose foreign keys point at it. */
  referencedBy: Map<string, string[]>;
  /** Each sequence's value (null: never used). */
  sequences: Map<string, string | null>;
}

interface Kept {
  embedded: EmbeddedPostgres;
  clean: Clean;
  busy: boolean;
}

const SYSTEM = `('pg_catalog', 'information_schema', 'pg_toast')`;

const SCHEMA_DIGEST = `select md5(coalesce(string_agg(x, ',' order by x), '')) as digest from (
  select 'c' || c.oid || n.nspname || '.' || c.relname || c.relkind::text as x
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ${SYSTEM}
  union all select 'a' || a.attrelid || a.attname || a.atttypid || a.attnotnull || a.attnum || a.attgenerated::text
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ${SYSTEM} and a.attnum > 0 and not a.attisdropped
  union all select 'o' || o.oid || o.conname from pg_constraint o join pg_namespace n on n.oid = o.connamespace
    where n.nspname not in ${SYSTEM}
  union all select 'p' || p.oid || p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ${SYSTEM}
  union all select 't' || t.oid || t.tgname || t.tgenabled::text from pg_trigger t where not t.tgisinternal
  union all select 'n' || nspname from pg_namespace
  union all select 'r' || rolname || rolsuper from pg_roles
  union all select 'e' || extname || extversion from pg_extension
  union all select 's' || setdatabase || setrole || array_to_string(setconfig, ';') from pg_db_role_setting
) s`;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function rows<T>(pglite: PGlite, query: string): Promise<T[]> {
  return (await pglite.query<T>(query)).rows;
}

async function one<T>(pglite: PGlite, query: string): Promise<T> {
  const [row] = await rows<T>(pglite, query);
  if (!row) throw new Error(`no row from: ${query.slice(0, 80)}`);
  return row;
}

/** Each sequence's last value (null: never used). */
const sequenceValues = (pglite: PGlite) =>
  rows<{ name: string; value: string | null }>(
    pglite,
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
     from pg_sequences where schemaname not in ${SYSTEM}`,
  );

/** A digest of a table's rows, in a stable order. */
const rowsDigest = (table: string) =>
  `(select md5(coalesce(string_agg(r::text, ',' order by r::text), '')) from ${table} r)`;

async function readClean(pglite: PGlite): Promise<Clean> {
  const { digest: schema } = await one<{ digest: string }>(pglite, SCHEMA_DIGEST);
  const tables = (
    await rows<{ name: string }>(
      pglite,
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname not in ${SYSTEM} order by 1`,
    )
  ).map((r) => r.name);
  const seeded: Clean['seeded'] = new Map();
  for (const table of tables) {
    const { filled } = await one<{ filled: boolean }>(
      pglite,
      `select exists(select 1 from ${table}) as filled`,
    );
    if (!filled) continue;
    // Stored generated columns are computed again on insert; identities are written as they were.
    const columns = await rows<{ name: string; identity: string }>(
      pglite,
      `select quote_ident(attname) as name, attidentity as identity from pg_attribute
       where attrelid = ${literal(table)}::regclass and attnum > 0 and not attisdropped
         and attgenerated = '' order by attnum`,
    );
    const { data, digest } = await one<{ data: string; digest: string }>(
      pglite,
      `select coalesce(json_agg(r), '[]')::text as data, ${rowsDigest(table)} as digest
       from ${table} r`,
    );
    seeded.set(table, {
      digest,
      columns: columns.map((c) => c.name),
      rows: data,
      identity: columns.some((c) => c.identity === 'a'),
    });
  }
  const referencedBy: Clean['referencedBy'] = new Map();
  for (const fk of await rows<{ referenced: string; referencing: string }>(
    pglite,
    `select format('%I.%I', fn.nspname, f.relname) as referenced,
            format('%I.%I', cn.nspname, c.relname) as referencing
     from pg_constraint o
     join pg_class f on f.oid = o.confrelid join pg_namespace fn on fn.oid = f.relnamespace
     join pg_class c on c.oid = o.conrelid join pg_namespace cn on cn.oid = c.relnamespace
     where o.contype = 'f'`,
  )) {
    referencedBy.set(fk.referenced, [...(referencedBy.get(fk.referenced) ?? []), fk.referencing]);
  }
  const sequences = new Map((await sequenceValues(pglite)).map((s) => [s.name, s.value]));
  return { schema, tables, seeded, referencedBy, sequences };
}

/** Empties what a file wrote; false when the database cannot be put back and must be replaced. */
async function reset(kept: Kept): Promise<boolean> {
  const { pglite } = kept.embedded;
  const { clean } = kept;
  if (pglite.isInTransaction()) return false;
  const { digest } = await one<{ digest: string }>(pglite, SCHEMA_DIGEST);
  if (digest !== clean.schema) return false;
  // Which tables a file wrote: any row in a table the migrations left empty, changed rows in one
  // they filled. One statement for all of them.
  const probe = clean.tables
    .map((t) =>
      clean.seeded.has(t)
        ? `select ${literal(t)} as name where ${rowsDigest(t)} <> ${literal(clean.seeded.get(t)!.digest)}`
        : `select ${literal(t)} as name where exists(select 1 from ${t})`,
    )
    .join(' union all ');
  const written = (await rows<{ name: string }>(pglite, probe)).map((r) => r.name);
  const emptied = new Set<string>();
  const visit = (t: string) => {
    if (emptied.has(t)) return;
    emptied.add(t);
    for (const by of clean.referencedBy.get(t) ?? []) visit(by);
  };
  written.forEach(visit);
  const statements: string[] = [];
  if (emptied.size) {
    statements.push(`truncate ${[...emptied].join(', ')}`);
    // Seed rows go back in any order: foreign keys are not checked while they do.
    statements.push(`set local session_replication_role = replica`);
    for (const t of emptied) {
      const seed = clean.seeded.get(t);
      if (!seed) continue;
      const columns = seed.columns.join(', ');
      statements.push(
        `insert into ${t} (${columns}) ${seed.identity ? 'overriding system value ' : ''}` +
          `select ${columns} from json_populate_recordset(null::${t}, ${literal(seed.rows)})`,
      );
    }
  }
  for (const s of await sequenceValues(pglite)) {
    const was = clean.sequences.get(s.name);
    if (s.value === was) continue;
    statements.push(
      was === null || was === undefined
        ? `alter sequence ${s.name} restart`
        : `select setval(${literal(s.name)}, ${was}, true)`,
    );
  }
  if (statements.length) await pglite.transaction((tx) => tx.exec(statements.join(';\n')));
  // Session state a file left behind (settings, advisory locks): every connection shares the session.
  await pglite.exec('discard all');
  return true;
}

let kept: Promise<Kept> | null = null;

/**
 * The worker's database, emptied when the caller's `drop` runs; null while another caller of the
 * same file holds it (a file with two apps at once gets a database of its own for the second).
 */
export async function keptDatabase(
  dump: Blob,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!kept) {
    kept = (async () => {
      const embedded = await startEmbeddedPostgres({ loadDataDir: dump });
      return { embedded, clean: await readClean(embedded.pglite), busy: false };
    })();
    kept.catch(() => (kept = null));
  }
  const mine = kept;
  const current = await mine;
  if (current.busy) return null;
  current.busy = true;
  return {
    url: current.embedded.url,
    async drop() {
      let reusable = false;
      try {
        reusable = await reset(current);
      } finally {
        if (!reusable) {
          if (kept === mine) kept = null;
          await current.embedded.stop();
        }
        current.busy = false;
      }
    },
  };
}
