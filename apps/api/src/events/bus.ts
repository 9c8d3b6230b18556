import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { inLanes, newId, SingleRun } from '../lib.ts';
import type { DomainEvent, EventPayloads, EventType } from './types.ts';

export interface Subscriber {
  /** Stable: deliveries are keyed by it, so renaming a subscriber is a migration. */
  name: string;
  types: readonly EventType[];
  /**
   * Runs in the transaction that marks its delivery done, so its own database work commits exactly
   * once. Work outside the database (a provider call, a mail) happens at least once: make it
   * idempotent, and read current state rather than trusting the event's view of it.
   */
  handle(tx: Tx, event: DomainEvent): Promise<void>;
  /**
   * Runs inside the publisher's transaction instead, before it commits: for a read model that must
   * agree with the change the moment it commits (what a buyer owns). Its failure fails the change,
   * so it does only its own database work. It is never retried and has no delivery rows.
   */
  inline?: boolean;
  /**
   * Decides from the event alone whether this subscriber gets it at all: a purchase that grants no
   * Discord role needs no Discord delivery row, run or wake-up.
   */
  wants?(event: Pick<DomainEvent, 'type' | 'data'>): boolean;
}

interface DueRow extends Record<string, unknown> {
  event_id: string;
  subscriber: string;
}

interface LockedRow extends Record<string, unknown> {
  id: string;
  type: EventType;
  stream: string;
  version: number;
  data: unknown;
  occurred_at: string | Date;
  waiting: boolean;
}

/** Deliveries one pass runs side by side. */
const DELIVERING = 4;

/**
 * Domain events (ADR 028): `publish` writes an event and one delivery per subscriber in the writer's
 * transaction; `deliverDue` hands each delivery to its subscriber once the stream's earlier events
 * have reached that subscriber. A failing subscriber is retried with backoff and holds back only its
 * own later events of that stream.
 */
export class EventBus {
  private readonly byName: Map<string, Subscriber>;
  /** Transactions that queued a delivery: only their commits need a delivery run. */
  private readonly queued = new WeakSet<Tx>();
  /** This process's delivery run, and whether more was committed while it ran. */
  private readonly runs = new SingleRun();

  constructor(
    subscribers: readonly Subscriber[],
    /** Asks a worker to deliver soon; the scheduled sweep delivers anyway (a crash loses nothing). */
    private readonly wake: () => Promise<void>,
  ) {
    this.byName = new Map(subscribers.map((s) => [s.name, s]));
    if (this.byName.size !== subscribers.length) throw new Error('two subscribers share a name');
  }

  /**
   * Writes the event in `tx`. Once the transaction has committed, call `notify(queuedIn(tx))`.
   */
  async publish<T extends EventType>(
    tx: Tx,
    type: T,
    stream: string,
    data: EventPayloads[T],
  ): Promise<string> {
    const id = newId('evt');
    const wanting = [...this.byName.values()].filter((s) => s.types.includes(type));
    const names = wanting
      .filter((s) => !s.inline && (s.wants?.({ type, data } as DomainEvent) ?? true))
      .map((s) => s.name);
    // One round trip: the stream's row lock (held to commit) makes its publishers take turns, so
    // versions follow commit order with no gaps; the event and its deliveries are written with it.
    const inserted = await tx.execute<{ version: number }>(sql`
      with bumped as (
        insert into event_streams (stream, version) values (${stream}, 1)
        on conflict (stream) do update set version = event_streams.version + 1
        returning version
      ), event as (
        insert into domain_events (id, type, stream, version, data)
        select ${id}, ${type}, ${stream}, bumped.version, ${JSON.stringify(data)}::jsonb from bumped
        returning version
      ), deliveries as (
        insert into event_deliveries (event_id, subscriber, stream, version)
        select ${id}, name, ${stream}, event.version
          from event, unnest(${sql.param(names)}::text[]) as name
      )
      select version from event`);
    const version = inserted.rows[0]!.version;
    if (names.length) this.queued.add(tx);
    const event = {
      id,
      type,
      stream,
      version,
      data,
      occurredAt: new Date().toISOString(),
    } as DomainEvent;
    for (const s of wanting) if (s.inline) await s.handle(tx, event);
    return id;
  }

  /** Whether `tx` queued a delivery: return it from the transaction and pass it to `notify`. */
  queuedIn(tx: Tx): boolean {
    return this.queued.has(tx);
  }

  /**
   * After a commit that queued deliveries: delivery starts now instead of at the next sweep. When
   * this process is already delivering, that run looks once more (it starts after this commit), and
   * no job is sent: a burst of payments costs one scan per round, not one job per payment.
   */
  async notify(queued: boolean): Promise<void> {
    if (!queued || this.runs.askAgain()) return;
    await this.wake();
  }

  /** One delivery run per process; a call during a run asks it for one more pass and joins it. */
  deliverInRun(db: Db): Promise<void> {
    return this.runs.run(() => this.deliverDue(db));
  }

  /**
   * Delivers what is due, oldest first, until nothing is or `limit` attempts were made. Safe to run
   * in several workers at once: each delivery is locked while it runs. A page's deliveries run up to
   * `DELIVERING` at a time: each is the head of its own subscriber's queue for its stream (the query
   * leaves out any with an earlier undelivered version), so order per stream holds. One at a time, a
   * burst of payments starved the pass: each delivery's statements queued behind the payments' for a
   * pooled connection, and access delivery lagged the payments by seconds (`npm run bench access`).
   */
  async deliverDue(db: Db, limit = 200): Promise<{ delivered: number; failed: number }> {
    const done = { delivered: 0, failed: 0 };
    const names = [...this.byName.values()].filter((s) => !s.inline).map((s) => s.name);
    if (!names.length) return done;
    const tried = new Set<string>();
    while (done.delivered + done.failed < limit) {
      const due = (
        await db.execute<DueRow>(sql`
          select d.event_id, d.subscriber from event_deliveries d
          where d.delivered_at is null and d.next_attempt_at <= now()
            and d.subscriber in (${sql.join(
              names.map((n) => sql`${n}`),
              sql`, `,
            )})
            and not exists (select 1 from event_deliveries p
              where p.subscriber = d.subscriber and p.stream = d.stream
                and p.version < d.version and p.delivered_at is null)
          order by d.next_attempt_at, d.version
          limit 50`)
      ).rows.filter((r) => !tried.has(`${r.event_id}/${r.subscriber}`));
      if (!due.length) break;
      for (const row of due) tried.add(`${row.event_id}/${row.subscriber}`);
      // Recording a failure can fail too (the database went away): that ends the pass.
      await inLanes(due, DELIVERING, async (row) => {
        const outcome = await this.deliverOne(db, row.event_id, row.subscriber);
        if (outcome === 'delivered') done.delivered++;
        else if (outcome === 'failed') done.failed++;
      });
    }
    return done;
  }

  private async deliverOne(
    db: Db,
    eventId: string,
    name: string,
  ): Promise<'delivered' | 'failed' | 'skipped'> {
    const subscriber = this.byName.get(name)!;
    try {
      return await db.transaction(async (tx) => {
        const locked = (
          await tx.execute<LockedRow>(sql`
            select e.id, e.type, e.stream, e.version, e.data, e.occurred_at,
              exists (select 1 from event_deliveries p
                where p.subscriber = d.subscriber and p.stream = d.stream
                  and p.version < d.version and p.delivered_at is null) as waiting
            from event_deliveries d join domain_events e on e.id = d.event_id
            where d.event_id = ${eventId} and d.subscriber = ${name} and d.delivered_at is null
            for update of d skip locked`)
        ).rows[0];
        // Another worker has it, it is done, or an earlier event of its stream is not yet delivered.
        if (!locked || locked.waiting) return 'skipped';
        await subscriber.handle(tx, {
          id: locked.id,
          type: locked.type,
          stream: locked.stream,
          version: locked.version,
          data: locked.data,
          occurredAt: new Date(locked.occurred_at).toISOString(),
        } as DomainEvent);
        await tx.execute(sql`update event_deliveries
          set delivered_at = now(), attempts = attempts + 1, last_error = null
          where event_id = ${eventId} and subscriber = ${name}`);
        return 'delivered';
      });
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      // The n-th failure waits 5 s · 2^(n-1), at most an hour (`attempts` here is the old count).
      await db.execute(sql`update event_deliveries
        set attempts = attempts + 1, last_error = ${message},
          next_attempt_at = now() + make_interval(secs => least(3600, 5 * power(2, attempts)))
        where event_id = ${eventId} and subscriber = ${name} and delivered_at is null`);
      return 'failed';
    }
  }
}
