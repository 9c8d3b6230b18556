import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository documents itself (docs/architecture.md#tests): code cites its own docs, not papers
 * a clone does not have; README stays a front page; links and cited sections exist.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README_MAX_LINES = 250;
// Split so this file does not match itself.
const OUTSIDE_CITATIONS = ['SPEC' + ' §', 'ARCHITECTURE' + ' §', '../' + 'shared/'];
const BINARY = /\.(png|jpe?g|gif|webp|avif|ico|mp4|webm|vtt|pdf|zip|woff2?)$/i;

/** Files git tracks or would (not ignored), or every file outside dependencies and build output when git is absent. */
function sourceFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((f) => f !== '' && existsSync(path.join(root, f)));
  } catch {
    const skip = new Set(['node_modules', 'build', '.react-router', '.data', 'test-results']);
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) return skip.has(e.name) || e.name === '.git' ? [] : walk(rel);
        return [rel];
      });
    return walk('');
  }
}

function textFiles(): Array<{ file: string; text: string }> {
  return sourceFiles()
    .filter((f) => !BINARY.test(f) && f !== 'package-lock.json')
    .filter((f) => statSync(path.join(root, f)).size < 2_000_000)
    .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/** Markdown without its fenced code blocks and inline code spans: where links are links. */
function prose(markdown: string): string {
  return markdown.replace(FENCED, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors of a page's headings; a repeated heading gets -1, -2 … as on GitHub. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(FENCED, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Why a link from `from` (a path in the repository) to `target` does not resolve, or null. */
function brokenTarget(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: …
  const [rawPath = '', anchor] = target.split('#');
  const file = rawPath
    ? path.resolve(path.dirname(path.join(root, from)), decodeURIComponent(rawPath))
    : path.join(root, from);
  const rel = path.relative(root, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
    return `${target}: no heading #${anchor} in ${rel}`;
  return null;
}

/** Broken links of one markdown file's text. */
function brokenLinks(from: string, markdown: string): string[] {
  const out: string[] = [];
  for (const m of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const why = brokenTarget(from, m[1]!);
    if (why) out.push(`${from}: ${why}`);
  }
  return out;
}

describe('documentation lives in the repository', () => {
  const files = textFiles();
  const markdown = files.filter(
    ({ file }) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')),
  );

  it('finds the files it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(markdown.map((m) => m.file)).toContain('docs/product.md');
  });

  it('no file cites a document outside the repository', () => {
    const hits = files.flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          OUTSIDE_CITATIONS.some((n) => line.includes(n))
            ? [`${file}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(hits).toEqual([]);
  });

  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const text = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(text.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('every link in README.md and docs/ points at a file and heading that exist', () => {
    expect(markdown.flatMap(({ file, text }) => brokenLinks(file, text))).toEqual([]);
  });

  it('every docs/….md#section cited in the code exists', () => {
    const self = path.relative(root, fileURLToPath(import.meta.url));
    const cited = files.filter(({ file }) => file !== self); // its samples are broken on purpose
    const broken = cited.flatMap(({ file, text }) =>
      [...text.matchAll(/(?<![\w/.-])docs\/([\w./-]+?\.md)(#[\w-]+)?/g)].flatMap((m) => {
        const why = brokenTarget('README.md', `docs/${m[1]}${m[2] ?? ''}`);
        return why ? [`${file}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('the checks catch what they look for', () => {
    expect(brokenLinks('README.md', '[a](docs/missing.md) [b](docs/product.md#sessions)')).toEqual([
      'README.md: docs/missing.md: no such file',
    ]);
    expect(brokenLinks('docs/product.md', '[a](#no-such-section) [b](../../outside.md)')).toEqual([
      'docs/product.md: #no-such-section: no heading #no-such-section in docs/product.md',
      'docs/product.md: ../../outside.md: outside the repository',
    ]);
    expect(brokenLinks('README.md', '`[a](docs/missing.md)`\n```\n[b](nope.md)\n```')).toEqual([]);
    expect(slug('Bearer tokens')).toBe('bearer-tokens');
    expect(anchors('# A\n## Auth group\n## Auth group')).toEqual(
      new Set(['a', 'auth-group', 'auth-group-1']),
    );
  });
});
