import { describe, expect, it } from 'vitest';
import { apiGraph, cycles, fileTangles, tangles, webGraph } from './import-graph.ts';

/*
 * ADR 029 and issue 28: API modules and web features depend on each other in one direction only,
 * and the kit (components/, lib/) depends on no feature. `npm run graph:imports` prints the graph.
 */
const edges = (graph: Map<string, Map<string, string[]>>) =>
  new Map([...graph].map(([from, to]) => [from, [...to.keys()]]));

/** Each cycle with the imports that make it, for the failure message. */
function explain(graph: Map<string, Map<string, string[]>>): string[] {
  return cycles(edges(graph)).map((c) =>
    c.map((from, i) => graph.get(from)!.get(c[(i + 1) % c.length]!)![0]).join('; '),
  );
}

describe('the module-level import graph', () => {
  it('finds a planted cycle, so the checks below can fail', () => {
    const planted = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(planted)).toEqual([['a', 'b', 'c']]);
    expect(tangles(planted)).toEqual([['a', 'b', 'c']]);
  });

  it('API modules import each other in one direction only', () => {
    const graph = apiGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(explain(graph)).toEqual([]);
  });

  it('web features import each other in one direction only', () => {
    const graph = webGraph();
    expect([...graph.keys()].filter((k) => k.startsWith('features/')).length).toBeGreaterThan(10);
    expect(explain(graph)).toEqual([]);
  });

  it('the kit (components/, lib/) imports no feature', () => {
    const graph = webGraph();
    const up = ['components', 'lib'].flatMap((kit) =>
      [...(graph.get(kit) ?? new Map<string, string[]>())]
        .filter(([to]) => to.startsWith('features/'))
        .flatMap(([, files]) => files),
    );
    expect(up).toEqual([]);
  });

  it('files inside a module or feature do not import each other in a circle', () => {
    expect(fileTangles()).toEqual([]);
  });
});
