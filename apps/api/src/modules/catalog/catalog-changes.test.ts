import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps.ts';
import { checkCatalogChanges, publicRead } from './catalog-changes.ts';

/** A node's database whose replica answers the catalogue's version as the test decides. */
function nodeWith(replicaVersions: Array<Promise<number>>) {
  const versionRows = (version: number) => ({ rows: [{ version }] });
  let replicaReads = 0;
  const onReplica: string[] = [];
  const database = {
    db: { execute: async () => versionRows(2) },
    replica: {
      db: {
        execute: async () =>
          versionRows(await replicaVersions[replicaReads++ % replicaVersions.length]!),
      },
    },
    fromReplica: async <T>(read: () => Promise<T>) => {
      onReplica.push('read');
      return read();
    },
  };
  return {
    deps: { database } as unknown as AppDeps,
    onReplica,
    replicaReads: () => replicaReads,
  };
}

describe('catalogue polls (ADR 061)', () => {
  it('an older poll that read a lagging replica does not overrule a later one that saw it caught up', async () => {
    let lagging!: (version: number) => void;
    const first = new Promise<number>((resolve) => (lagging = resolve));
    const node = nodeWith([first, Promise.resolve(2)]);

    // The node's timer poll reads the replica before it replays version 2 (its answer comes late);
    // meanwhile a second poll finds the replica caught up.
    const timerPoll = checkCatalogChanges(node.deps);
    const laterPoll = checkCatalogChanges(node.deps);
    await turn();
    expect(node.replicaReads()).toBe(1);
    lagging(1);
    await Promise.all([timerPoll, laterPoll]);
    expect(node.replicaReads()).toBe(2);

    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual(['read']);
    // A signed-in reader stays on the primary whatever the replica shows.
    await publicRead(node.deps, 'user-1', async () => 'page');
    expect(node.onReplica).toEqual(['read']);
  });
});
