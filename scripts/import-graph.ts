/**
 * The module-level import graph (ADR 029): API modules (`apps/api/src/modules/<m>`), web features
 * (`apps/web/app/features/<f>`) and the web's shared kit (`components/`, `lib/`). Every import counts,
 * type-only and dynamic ones too: a type import still couples the two sides. Tests are left out (they
 * compose freely). `npm run graph:imports` prints it; `import-graph.test.ts` asserts it has no cycle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A part of the code base whose files are one node of the graph. */
export interface Area {
  /** Folder (relative to the repository root) whose sub-folders are the nodes. */
  dir: string;
  /** Node name for a file under `dir`: its first folder, or a fixed name. */
  label: string;
}

const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (isSource(name)) out.push(full);
  }
  return out;
}

/** Relative specifiers a file imports (static, type-only, re-exports and dynamic). */
export function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

/** File-level edges under `dir` (both ends inside it). */
export function fileGraph(dir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const abs = path.join(root, dir);
  for (const file of walk(abs)) {
    const to = new Set<string>();
    for (const spec of importsOf(file)) {
      const target = resolve(file, spec);
      if (target?.startsWith(abs + path.sep) && isSource(target))
        to.add(path.relative(root, target));
    }
    graph.set(path.relative(root, file), to);
  }
  return graph;
}

/** Groups a file graph into nodes; `nodeOf` returns undefined for files outside every node. */
export function nodeGraph(
  files: Map<string, Set<string>>,
  nodeOf: (file: string) => string | undefined,
): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const [file, targets] of files) {
    const from = nodeOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const target of targets) {
      const to = nodeOf(target);
      if (!to || to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${file} → ${target}`]);
    }
  }
  return graph;
}

/** Every elementary cycle's nodes, each found once (smallest node first). */
export function cycles(graph: Map<string, Iterable<string>>): string[][] {
  const found: string[][] = [];
  const nodes = [...graph.keys()].sort();
  for (const start of nodes) {
    const stack: string[] = [start];
    const search = (node: string) => {
      for (const next of graph.get(node) ?? []) {
        if (next === start) found.push([...stack]);
        else if (next > start && !stack.includes(next)) {
          stack.push(next);
          search(next);
          stack.pop();
        }
      }
    };
    search(start);
  }
  return found;
}

/** Groups of two or more nodes that reach each other (strongly connected components, Tarjan). */
export function tangles(graph: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

const first = (prefix: string) => (file: string) =>
  file.startsWith(prefix) ? file.slice(prefix.length).split('/')[0] : undefined;

/** API modules: `modules/<m>/…` is node `<m>`. */
export const apiModuleOf = first('apps/api/src/modules/');

/** Web: `features/<f>/…` is `features/<f>`; `components/` and `lib/` are the kit. */
export function webNodeOf(file: string): string | undefined {
  const rest = file.startsWith('apps/web/app/') ? file.slice('apps/web/app/'.length) : undefined;
  if (!rest) return undefined;
  const [top, sub] = rest.split('/');
  if (top === 'features') return `features/${sub}`;
  if (top === 'components' || top === 'lib') return top;
  return undefined;
}

/** Foreign keys: a tables.ts may name another module's tables (ADR 029); the schema is one. */
const foreignKey = (from: string, to: string) =>
  from.endsWith('/tables.ts') && to.endsWith('/tables.ts');

export function apiGraph() {
  const files = fileGraph('apps/api/src/modules');
  for (const [from, to] of files) for (const t of to) if (foreignKey(from, t)) to.delete(t);
  return nodeGraph(files, apiModuleOf);
}

/** Files inside one API module or web feature that import each other, per module or feature. */
export function fileTangles(): string[][] {
  const dirs = [
    ...readdirSync(path.join(root, 'apps/api/src/modules')).map((m) => `apps/api/src/modules/${m}`),
    ...readdirSync(path.join(root, 'apps/web/app/features')).map(
      (f) => `apps/web/app/features/${f}`,
    ),
    'apps/web/app/components',
    'apps/web/app/lib',
  ];
  return dirs.flatMap((dir) => tangles(fileGraph(dir)));
}

export function webGraph() {
  return nodeGraph(fileGraph('apps/web/app'), webNodeOf);
}

function print(title: string, graph: Map<string, Map<string, string[]>>) {
  console.log(`${title}`);
  for (const [from, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const to = [...edges.keys()].sort();
    console.log(`  ${from} → ${to.length ? to.join(', ') : '(nothing)'}`);
  }
  const found = cycles(new Map([...graph].map(([k, v]) => [k, [...v.keys()]])));
  console.log(
    found.length ? `  cycles: ${found.map((c) => c.join(' → ')).join('; ')}` : '  no cycle',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  print('API modules (apps/api/src/modules)', apiGraph());
  print('Web features and kit (apps/web/app)', webGraph());
  const found = fileTangles();
  console.log(`Files importing each other inside a module or feature: ${found.length || 'none'}`);
  for (const c of found) console.log(`  ${c.join(' ⇄ ')}`);
}
