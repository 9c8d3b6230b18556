import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps.ts';
import { catalogChanged, checkCatalogChanges, publicRead } from './catalog-changes.ts';

/** A node's database whose replica answers the catalogue's version as the test decides. */
function nodeWith(replicaVersions: Array<Promise<number>>, primaryVersions = [2]) {
  const versionRows = (version: number) => ({ rows: [{ version }] });
  let replicaReads = 0;
  let primaryReads = 0;
  const onReplica: string[] = [];
  const database = {
    db: {
      execute: async () =>
        versionRows(primaryVersions[Math.min(primaryReads++, primaryVersions.length - 1)]!),
    },
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

  it('a change this node makes while a poll reads the replica keeps public reads on the primary', async () => {
    let answer!: (version: number) => void;
    const node = nodeWith([
      new Promise<number>((resolve) => (answer = resolve)),
      Promise.resolve(2),
    ]);
    const poll = checkCatalogChanges(node.deps);
    await turn();
    // The replica was asked while it had version 2; this node then commits version 3.
    catalogChanged(node.deps, 3);
    answer(2);
    await poll;
    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual([]);
  });

  it("another node's change moves public reads to the primary when a poll sees it, before the replica answers", async () => {
    let replicaAnswer!: (version: number) => void;
    const node = nodeWith(
      [Promise.resolve(1), new Promise<number>((resolve) => (replicaAnswer = resolve))],
      [1, 2],
    );
    // The first poll learns version 1 on both; public reads go to the replica.
    await checkCatalogChanges(node.deps);
    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual(['read']);

    // Another node commits version 2. This node's poll sees it on the primary, its caches drop,
    // and it asks the replica, which has not answered yet: a page rendered now is cached as the
    // new version, so it must not come from the replica.
    const poll = checkCatalogChanges(node.deps);
    await turn();
    expect(node.replicaReads()).toBe(2);
    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual(['read']);

    replicaAnswer(2);
    await poll;
    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual(['read', 'read']);
  });

  it('a replica that cannot be read keeps public reads on the primary', async () => {
    const node = nodeWith([Promise.reject(new Error('connection refused'))]);
    await checkCatalogChanges(node.deps);
    await publicRead(node.deps, null, async () => 'page');
    expect(node.onReplica).toEqual([]);
  });
});
