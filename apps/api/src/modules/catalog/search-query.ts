// A query resolved against the index (words, terms, lexemes), and its tsquery and field SQL.
import type { searchQuery } from '@tradeshelf/contract';
import type { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { preparedRows } from '../../db/prepared.ts';

export type SearchInput = z.output<typeof searchQuery>;
export type Sort = SearchInput['sort'];

/** The words of a query: letters and digits, lower case, at most 8. */
export function queryWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** How many indexed completions a word being typed expands to (the most common ones). */
const PREFIX_EXPANSIONS = 10;

/**
 * One term of a query, resolved against the index. A word is one term; a synonym may stand for several
 * ('fvg': fair, value, gap), each matched by any of its lexemes.
 */
export interface Term {
  stem: string;
  /** Lexemes some product has in its title, tags or fields: for the word being typed, its completions too. */
  lexemes: string[];
  /** Postings of those lexemes: how common the term is. */
  df: number;
  /** Some product has the term (or a completion) only in its summary or description. */
  inBody: boolean;
  prefix: boolean;
  /** A synonym's text lexemes, as listed (null for other words: their stem is matched). */
  bodyLexemes: string[] | null;
  /** The structured fields a synonym stands for ('@kind:indicator', '@platform:mt5', '@bundle'). */
  fields: string[];
}

/** A query as searched: its words (known phrases joined) and their terms (none for a stop word). */
export interface ResolvedQuery {
  text: string;
  words: Array<{ text: string; terms: Term[] }>;
  terms: Term[];
}

export const isField = (lexeme: string) => lexeme.startsWith('@');
/** A term that a title can hold: not only structured fields. */
export const inTitles = (t: Term) => t.lexemes.some((l) => !isField(l));
export const asksForBundles = (t: Term) => t.fields.includes('@bundle');

/** Bundles matched in the same statement as the words: the query, and the ids it found. */
export interface BundleMatch {
  query: SQL;
  ids: string[];
}

interface ResolvedRow {
  pass: number;
  n: number;
  term: number;
  word: string;
  stem: string | null;
  lexemes: string[];
  df: number;
  in_body: boolean;
  body_lexemes: string[] | null;
  fields: string[];
}

function toQuery(found: ResolvedRow[]): ResolvedQuery {
  const last = Math.max(0, ...found.map((r) => r.n));
  const words: ResolvedQuery['words'] = [];
  for (const r of found) {
    if (r.term === 1) words.push({ text: r.word, terms: [] });
    if (r.stem === null) continue; // a stop word: the index dropped it too
    // A synonym's terms that no product tells apart ('fvg' when no title says "fair value gap") are one.
    const same = (t: Term) => t.lexemes.join(' ') === r.lexemes.join(' ') && r.lexemes.length > 0;
    if (r.term > 1 && words.at(-1)!.terms.some(same)) continue;
    words.at(-1)!.terms.push({
      stem: r.stem,
      lexemes: r.lexemes,
      df: r.df,
      inBody: r.in_body,
      prefix: r.body_lexemes === null && r.n === last,
      bodyLexemes: r.body_lexemes,
      fields: r.fields,
    });
  }
  return {
    text: words.map((w) => w.text).join(' '),
    words,
    terms: words.flatMap((w) => w.terms),
  };
}

/**
 * Resolves the words the way the index did: known phrases joined ('metatrader 5'), synonyms expanded to
 * their lexemes (ADR 023), other words stemmed ('english': stop words drop out); the last word is still
 * being typed, so it also matches the most common lexemes that start with it. With `fix`, also the query
 * with each word found nowhere replaced by the closest known word, resolved the same way (null when
 * that changes nothing). One round trip (`tradeshelf_resolve_query`, ADR 016).
 */
export async function resolveQuery(
  deps: AppDeps,
  words: string[],
  fix: 'never' | 'ifUnknown' | 'always',
  bundles: BundleMatch | null = null,
): Promise<{ typed: ResolvedQuery; corrected: ResolvedQuery | null }> {
  const resolve = sql`select r.*, null::text as bundle_id from tradeshelf_resolve_query(${sql.param(words)}::text[], ${PREFIX_EXPANSIONS}::int, ${FIX[fix]}::int) r`;
  // Bundles ride along as rows of their own (pass -1, numbered in their order): one round trip fewer.
  const found = await preparedRows<ResolvedRow & { bundle_id: string | null }>(
    deps.database,
    bundles
      ? sql`${resolve} union all
          select -1, (row_number() over (order by b.created_at desc, b.id))::int, null, null, null, null, null, null, null, null, b.id
          from (${bundles.query}) b`
      : resolve,
  );
  const ofPass = (pass: number) =>
    found.filter((r) => r.pass === pass).sort((a, b) => a.n - b.n || a.term - b.term);
  if (bundles) bundles.ids = ofPass(-1).map((r) => r.bundle_id!);
  const fixed = ofPass(1);
  return { typed: toQuery(ofPass(0)), corrected: fixed.length ? toQuery(fixed) : null };
}
const FIX = { never: 0, ifUnknown: 1, always: 2 } as const;

/** A tsquery from lexemes as they are (quoted: no second stemming, no operators from user text). */
const quoteLexeme = (l: string) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
/**
 * One term's text alternatives as a tsquery: its title/tag lexemes, and with `withStems` what a
 * description may hold (the stem, as a prefix for the word being typed; a synonym's listed words).
 * Null when the term is only structured fields.
 */
export function termQuery(t: Term, withStems: boolean, titleOnly = false): string | null {
  const weight = titleOnly ? 'A' : '';
  const alternatives = new Set(
    t.lexemes.filter((l) => !isField(l)).map((l) => quoteLexeme(l) + (weight && `:${weight}`)),
  );
  if (withStems && t.bodyLexemes)
    for (const l of t.bodyLexemes) alternatives.add(quoteLexeme(l) + (weight && `:${weight}`));
  else if (withStems)
    alternatives.add(quoteLexeme(t.stem) + (t.prefix ? `:*${weight}` : weight && `:${weight}`));
  return alternatives.size ? `(${[...alternatives].join(' | ')})` : null;
}

/** The products row (`p`) has one of the fields a term stands for; null when it stands for none. */
export function fieldsSql(t: Term): SQL | null {
  const parts = t.fields.flatMap((f) => {
    const [field, value] = f.slice(1).split(':');
    if (field === 'kind') return [sql`p.kind = ${value}`];
    if (field === 'platform') return [sql`${value} = any(p.platforms)`];
    if (field === 'asset') return [sql`${value} = any(p.asset_classes)`];
    return [];
  });
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : null;
}
