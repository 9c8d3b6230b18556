import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import type { Tx } from '../db/client.ts';
import { jobHandlers } from '../jobs/handlers.ts';
import { queues } from '../jobs/queue.ts';
import type { Subscriber } from './bus.ts';
import { isPurchaseEvent, type DomainEvent, type PurchaseRef } from './types.ts';

/*
 * ADR 028: events are written in the writer's transaction and reach each subscriber once its
 * earlier events of the same stream have, whatever the number of deliverers, failures or crashes.
 * The subscribers here record what they saw in a table of the test's own, in the delivering
 * transaction, as a module's subscriber writes its own tables.
 */
const record = (name: string) => async (tx: Tx, event: DomainEvent) => {
  await tx.execute(sql`insert into seen (subscriber, event_id, stream, version, type)
    values (${name}, ${event.id}, ${event.stream}, ${event.version}, ${event.type})`);
};

/** Fails its first attempt at the first event of each stream named in `failing`. */
const failing = new Set<string>();
const failedOnce = new Set<string>();
/** Refuses (failing the publisher's transaction) for streams named in `refusing`. */
const refusing = new Set<string>();
/** Deliveries to `test.paid-only` running at once (slowed down when `slow`). */
const inFlight = { now: 0, most: 0, slow: false };
const subscribers: Subscriber[] = [
  {
    name: 'test.read-model',
    inline: true,
    types: ['purchase.paid'],
    handle: async (tx, event) => {
      if (refusing.has(event.stream)) throw new Error('read model refused');
      await record('read-model')(tx, event);
    },
  },
  {
    name: 'test.recorder',
    types: ['purchase.paid', 'purchase.refunded'],
    handle: record('recorder'),
  },
  {
    name: 'test.paid-only',
    types: ['purchase.paid'],
    handle: async (tx, event) => {
      inFlight.now++;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      try {
        if (inFlight.slow) await tx.execute(sql`select pg_sleep(0.05)`);
        await record('paid-only')(tx, event);
      } finally {
        inFlight.now--;
      }
    },
  },
  {
    // Only purchases that deliver a Discord role, as the access module's Discord subscriber.
    name: 'test.discord-only',
    types: ['purchase.paid'],
    wants: (event) => isPurchaseEvent(event) && event.data.deliveries.includes('discord_role'),
    handle: record('discord-only'),
  },
  {
    name: 'test.flaky',
    types: ['purchase.paid', 'purchase.refunded'],
    handle: async (tx, event) => {
      if (failing.has(event.stream) && event.version === 1 && !failedOnce.has(event.id)) {
        failedOnce.add(event.id);
        throw new Error(`flaky refused ${event.stream} v${event.version}`);
      }
      await record('flaky')(tx, event);
    },
  },
];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { subscribers });
  await t.database.db.execute(sql`create table seen (n bigserial primary key, subscriber text,
    event_id text, stream text, version int, type text)`);
});
afterAll(() => t.close());
beforeEach(async () => {
  failing.clear();
  failedOnce.clear();
});

let streams = 0;
const newStream = () => `pur_test_${++streams}_${Math.random().toString(36).slice(2, 8)}`;
const ref = (stream: string): PurchaseRef => ({
  purchaseId: stream,
  buyerId: 'usr_test',
  vendorId: 'ven_test',
  item: { type: 'product', id: 'prd_test' },
  productIds: ['prd_test'],
  deliveries: [],
});

async function publish(
  stream: string,
  type: 'purchase.paid' | 'purchase.refunded' = 'purchase.paid',
  deliveries: PurchaseRef['deliveries'] = [],
) {
  return t.database.db.transaction((tx) =>
    type === 'purchase.paid'
      ? t.deps.events.publish(tx, type, stream, {
          ...ref(stream),
          deliveries,
          trial: false,
          products: [],
        })
      : t.deps.events.publish(tx, type, stream, {
          ...ref(stream),
          amount: { amount: 100, currency: 'usd' },
          full: false,
        }),
  );
}

async function seen(subscriber: string, stream: string) {
  const { rows } = await t.database.db.execute<{ version: number; event_id: string; type: string }>(
    sql`select version, event_id, type from seen where subscriber = ${subscriber} and stream = ${stream} order by n`,
  );
  return rows;
}

const deliver = () => t.deps.events.deliverDue(t.database.db);

describe('domain events', () => {
  it('are written in the writer’s transaction: a rollback leaves no event and no delivery', async () => {
    const stream = newStream();
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.deps.events.publish(tx, 'purchase.paid', stream, {
          ...ref(stream),
          trial: false,
          products: [],
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const { rows } = await t.database.db.execute(
      sql`select 1 from domain_events where stream = ${stream}
          union all select 1 from event_deliveries where stream = ${stream}`,
    );
    expect(rows).toEqual([]);
  });

  it('reach each subscriber that wants their type once, in order per stream', async () => {
    const a = newStream();
    const b = newStream();
    await publish(a);
    await publish(b);
    await publish(a, 'purchase.refunded');
    await publish(b, 'purchase.refunded');
    await publish(a, 'purchase.refunded');
    await deliver();
    expect((await seen('recorder', a)).map((r) => [r.version, r.type])).toEqual([
      [1, 'purchase.paid'],
      [2, 'purchase.refunded'],
      [3, 'purchase.refunded'],
    ]);
    expect((await seen('recorder', b)).map((r) => r.version)).toEqual([1, 2]);
    expect((await seen('paid-only', a)).map((r) => r.version)).toEqual([1]);
    // A second run finds nothing left to do.
    expect(await deliver()).toEqual({ delivered: 0, failed: 0 });
  });

  it('numbers a stream’s events without gaps when many writers publish at once', async () => {
    const stream = newStream();
    await Promise.all(Array.from({ length: 12 }, () => publish(stream, 'purchase.refunded')));
    const { rows } = await t.database.db.execute<{ version: number }>(
      sql`select version from domain_events where stream = ${stream} order by version`,
    );
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await deliver()).toEqual({ delivered: 24, failed: 0 });
  });

  it('are delivered once each by deliverers running at the same time, still in order', async () => {
    const list = Array.from({ length: 5 }, newStream);
    for (let round = 0; round < 6; round++)
      await Promise.all(list.map((s) => publish(s, round ? 'purchase.refunded' : 'purchase.paid')));
    const runs = await Promise.all(Array.from({ length: 4 }, deliver));
    expect(runs.reduce((n, r) => n + r.delivered, 0)).toBe(5 * 6 * 2 + 5);
    for (const s of list) {
      expect((await seen('recorder', s)).map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await seen('flaky', s)).map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await seen('paid-only', s)).map((r) => r.version)).toEqual([1]);
    }
  });

  it('are delivered a few at a time by one deliverer, each stream still in order', async () => {
    const list = Array.from({ length: 8 }, newStream);
    for (const st of list) await publish(st);
    for (const st of list) await publish(st, 'purchase.refunded');
    inFlight.slow = true;
    inFlight.most = 0;
    try {
      expect(await deliver()).toEqual({ delivered: 8 * 5, failed: 0 });
    } finally {
      inFlight.slow = false;
    }
    // A slow subscriber does not hold up the streams behind it, and is not flooded either. The
    // embedded PGlite runs one transaction at a time, so there the deliveries take turns.
    if (inject('pgTemplate')) expect(inFlight.most).toBeGreaterThan(1);
    expect(inFlight.most).toBeLessThanOrEqual(4);
    for (const st of list) {
      expect((await seen('recorder', st)).map((r) => r.type)).toEqual([
        'purchase.paid',
        'purchase.refunded',
      ]);
      expect(await seen('paid-only', st)).toHaveLength(1);
    }
  });

  it('retry a failing subscriber later without holding back other subscribers or streams', async () => {
    const stuck = newStream();
    const fine = newStream();
    failing.add(stuck);
    await publish(stuck);
    await publish(stuck, 'purchase.refunded');
    await publish(fine);
    const first = await deliver();
    expect(first.failed).toBe(1);
    // Every other subscriber, and the flaky one on another stream, carried on.
    expect((await seen('recorder', stuck)).map((r) => r.version)).toEqual([1, 2]);
    expect((await seen('flaky', fine)).map((r) => r.version)).toEqual([1]);
    // The flaky subscriber's later event of the failed stream waits behind the failure.
    expect(await seen('flaky', stuck)).toEqual([]);
    const { rows } = await t.database.db.execute<{
      attempts: number;
      last_error: string;
      wait: number;
    }>(sql`select attempts, last_error,
        extract(epoch from next_attempt_at - now())::float as wait
      from event_deliveries where subscriber = 'test.flaky' and stream = ${stuck} and version = 1`);
    expect(rows[0]).toMatchObject({ attempts: 1, last_error: `flaky refused ${stuck} v1` });
    expect(rows[0]!.wait).toBeGreaterThan(3);
    expect(rows[0]!.wait).toBeLessThanOrEqual(5);
    // Not due yet: nothing happens.
    expect(await deliver()).toEqual({ delivered: 0, failed: 0 });

    // Once due, it goes through, and the event held behind it follows in order.
    await t.database.db.execute(sql`update event_deliveries set next_attempt_at = now()
      where subscriber = 'test.flaky' and stream = ${stuck} and delivered_at is null`);
    expect(await deliver()).toEqual({ delivered: 2, failed: 0 });
    expect((await seen('flaky', stuck)).map((r) => r.version)).toEqual([1, 2]);
  });

  it('run inline subscribers in the publisher’s transaction: committed with it, or not at all', async () => {
    const kept = newStream();
    await t.database.db.transaction(async (tx) => {
      await t.deps.events.publish(tx, 'purchase.paid', kept, {
        ...ref(kept),
        trial: false,
        products: [],
      });
      // Already visible inside the transaction that published, before any delivery runs.
      const { rows } = await tx.execute(
        sql`select 1 from seen where subscriber = 'read-model' and stream = ${kept}`,
      );
      expect(rows).toHaveLength(1);
    });
    const refused = newStream();
    refusing.add(refused);
    await expect(publish(refused)).rejects.toThrow('read model refused');
    expect(await seen('read-model', refused)).toEqual([]);
    const { rows } = await t.database.db.execute(
      sql`select 1 from domain_events where stream = ${refused}`,
    );
    expect(rows).toEqual([]);
    // Inline subscribers have no deliveries to retry.
    const deliveries = await t.database.db.execute(
      sql`select 1 from event_deliveries where stream = ${kept} and subscriber = 'test.read-model'`,
    );
    expect(deliveries.rows).toEqual([]);
    await deliver();
  });

  it('are woken after the commit, and a lost wake-up (a crash) is made good by the sweep', async () => {
    const woken = newStream();
    await publish(woken);
    await t.deps.events.notify(true);
    await t.jobs.settle();
    expect((await seen('recorder', woken)).map((r) => r.version)).toEqual([1]);

    // Committed, then the process died before it could wake anyone.
    const orphan = newStream();
    await publish(orphan);
    await t.jobs.settle();
    expect(await seen('recorder', orphan)).toEqual([]);
    // The sweep is the same job, scheduled every minute (jobs/workers.ts).
    await jobHandlers(t.deps)[queues.eventsDeliver]!({});
    expect((await seen('recorder', orphan)).map((r) => r.version)).toEqual([1]);
  });

  it('reach only the subscribers that want them: no delivery row, and no wake-up when none does', async () => {
    const plain = newStream();
    const discord = newStream();
    await publish(plain);
    await publish(discord, 'purchase.paid', ['discord_role']);
    await deliver();
    expect(await seen('discord-only', plain)).toEqual([]);
    expect((await seen('discord-only', discord)).map((r) => r.version)).toEqual([1]);
    const rows = await t.database.db.execute(
      sql`select 1 from event_deliveries where stream = ${plain} and subscriber = 'test.discord-only'`,
    );
    expect(rows.rows).toEqual([]);

    // A transaction whose events no delivered subscriber wants queues nothing, so wakes no one.
    const queued = await t.database.db.transaction(async (tx) => {
      const bare = newStream();
      await t.deps.events.publish(tx, 'purchase.disputed', bare, ref(bare));
      return t.deps.events.queuedIn(tx);
    });
    expect(queued).toBe(false);
    const wanted = await t.database.db.transaction(async (tx) => {
      const paid = newStream();
      await t.deps.events.publish(tx, 'purchase.paid', paid, {
        ...ref(paid),
        trial: false,
        products: [],
      });
      return t.deps.events.queuedIn(tx);
    });
    expect(wanted).toBe(true);
  });
});
