import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  generatedMigration,
  journalPath,
  lastGeneratedMigration,
  readJournal,
  readSearchSql,
  sourceOf,
} from '../modules/catalog/search-sql.ts';
import { migrationsFolder } from './migrate.ts';

/**
 * `npm run db:search-migration -- [name] [--number N]`: when search.sql differs from what the last
 * generated migration holds, writes the next migration from it and adds it to the journal. `--number`
 * picks the file number (numbers are handed out per branch; the journal order is what runs).
 */
function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--number');
  const number = at >= 0 ? Number(args[at + 1]) : null;
  if (at >= 0) args.splice(at, 2);
  const name = args[0] ?? 'search_functions';
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('name: lower-case letters, digits, underscores');
  if (number !== null && (!Number.isInteger(number) || number < 0 || number > 9999))
    throw new Error('--number must be a whole number from 0 to 9999');

  const source = readSearchSql();
  const last = lastGeneratedMigration();
  const previous = last ? sourceOf(last.text) : null;
  if (previous === source) {
    process.stdout.write(`search.sql unchanged since ${last!.tag}\n`);
    return;
  }
  const taken = readdirSync(migrationsFolder)
    .map((f) => /^(\d{4})_.*\.sql$/.exec(f)?.[1])
    .filter((n): n is string => Boolean(n))
    .map(Number);
  const next = number ?? Math.max(-1, ...taken) + 1;
  if (taken.includes(next)) throw new Error(`migration number ${next} is taken`);
  const tag = `${String(next).padStart(4, '0')}_${name}`;
  writeFileSync(path.join(migrationsFolder, `${tag}.sql`), generatedMigration(source, previous));

  const journal = readJournal();
  const lastEntry = journal.entries.at(-1);
  journal.entries.push({
    idx: (lastEntry?.idx ?? -1) + 1,
    version: '7',
    // The migrator applies entries newer than the last one applied, by this time.
    when: Math.max(Date.now(), (lastEntry?.when ?? 0) + 1),
    tag,
    breakpoints: true,
  });
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  process.stdout.write(`wrote ${tag}.sql\n`);
}

main();
