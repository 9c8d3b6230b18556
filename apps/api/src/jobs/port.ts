import type PgBoss from 'pg-boss';
import type { Tx } from '../db/client.ts';
import { clientOf } from '../db/transactions.ts';
import { withTraceContext } from '../platform/tracing.ts';

/** A job's payload: plain JSON, since pg-boss stores it as a row. */
export type JobData = Record<string, string>;
export type JobHandler = (data: JobData) => Promise<void>;

/**
 * Work a request hands off so it can answer first (ADR 021). `send` resolves once the job is
 * queued, never after it ran, so the answer cannot depend on what the job finds.
 */
export interface Jobs {
  send(name: string, data: JobData, options?: SendOptions): Promise<void>;
}

export interface SendOptions {
  /**
   * Queue the job in this open transaction: it exists only if the transaction commits, and it
   * needs no second connection (the embedded database serves one transaction at a time, so a send
   * on the queue's own pool from inside a transaction waits for that transaction to end).
   */
  tx?: Tx;
}

/** Production: a pg-boss row, picked up by any worker process and retried on failure. */
export class BossJobs implements Jobs {
  constructor(private readonly boss: PgBoss) {}

  async send(name: string, data: JobData, options: SendOptions = {}): Promise<void> {
    const tx = options.tx;
    await this.boss.send(
      name,
      // The request's (or job's) trace, for the job's span to link to; nothing when tracing is off.
      withTraceContext(data),
      tx ? { db: { executeSql: (text, values) => clientOf(tx).query(text, values) } } : {},
    );
  }
}

/**
 * No queue (tests, one-off scripts): the job runs in this process on a later turn of the event
 * loop, after the request that sent it has answered. Failures are reported, not retried.
 */
export class InlineJobs implements Jobs {
  private readonly inFlight = new Set<Promise<void>>();
  private held: Array<() => void> | null = null;

  constructor(
    private readonly run: (name: string, data: JobData) => Promise<void>,
    private readonly onError: (err: unknown, name: string) => void,
  ) {}

  /**
   * A job sent in a transaction starts once that transaction has ended (its connection went back
   * to the pool), as a queued row would only then be seen: on PostgreSQL a job started earlier read
   * the database from another connection without the transaction's writes. It runs whatever the
   * outcome (jobs are idempotent work).
   */
  async send(name: string, data: JobData, options: SendOptions = {}): Promise<void> {
    const ended = options.tx ? whenReleased(options.tx) : Promise.resolve();
    const job: Promise<void> = new Promise<void>((resolve) => {
      const start = () => void ended.then(() => setImmediate(resolve));
      if (this.held) this.held.push(start);
      else start();
    })
      .then(() => this.run(name, data))
      .catch((err: unknown) => this.onError(err, name))
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  /** Tests: keep jobs from starting until `settle`, to see what a request did by itself. */
  hold(): void {
    this.held ??= [];
  }

  /** Starts held jobs and resolves when no job is left running (including jobs sent by jobs). */
  async settle(): Promise<void> {
    const held = this.held ?? [];
    this.held = null;
    for (const start of held) start();
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }
}

/** Resolves when the transaction's connection is released (the transaction committed or rolled back). */
function whenReleased(tx: Tx): Promise<void> {
  const client = clientOf(tx);
  // Outside a pool client (a bare pool) there is no transaction to wait for.
  if (!('release' in client)) return Promise.resolve();
  return new Promise((resolve) => {
    const release = client.release;
    client.release = (...args: Parameters<typeof release>) => {
      client.release = release;
      const done = release.apply(client, args);
      resolve();
      return done;
    };
  });
}
