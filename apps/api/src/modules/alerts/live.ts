// Live alerts over server-sent events (ADR 059). Each process keeps its open streams by user and
// asks the database once per poll (and at once after a publish here) for web deliveries past the
// last alert it saw, so a publish on any node reaches streams on every node without a broker.
import type { ServerResponse } from 'node:http';
import type { Alert } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { alertView, joinedAlertColumns, type AlertRow } from './view.ts';

/** A comment line now and then keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;
/** Open streams per person on one node (tabs and devices): a new one past it ends the oldest. */
export const STREAMS_PER_USER = 4;

export class LiveAlerts {
  private readonly streams = new Map<string, Set<ServerResponse>>();
  private lastSeq: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: AppDeps) {}

  get open(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** Adds a stream for `userId`; it is dropped when the client goes. */
  async add(userId: string, res: ServerResponse): Promise<void> {
    if (this.lastSeq === null) await this.catchUp();
    let set = this.streams.get(userId);
    if (!set) this.streams.set(userId, (set = new Set()));
    // Each stream holds a connection: one account cannot hold more than a few (sets keep order).
    for (const old of [...set].slice(0, Math.max(0, set.size - STREAMS_PER_USER + 1))) {
      set.delete(old);
      // Said before the end, so that page does not open it again (and end another in turn).
      old.end('event: closed\ndata: {"reason":"too_many_streams"}\n\n');
    }
    set.add(res);
    res.on('close', () => {
      set.delete(res);
      if (!set.size) this.streams.delete(userId);
      if (!this.streams.size) this.stop();
    });
    this.start();
  }

  /** Looks now (a publish on this process just committed). */
  wake(): void {
    if (this.streams.size) void this.poll();
  }

  close(): void {
    this.stop();
    for (const set of this.streams.values()) for (const res of set) res.end();
    this.streams.clear();
  }

  private start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.deps.config.ALERTS_LIVE_POLL_MS);
    this.timer.unref();
    this.heartbeat = setInterval(() => {
      for (const set of this.streams.values()) for (const res of set) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = this.heartbeat = null;
  }

  private async catchUp() {
    const { rows } = await this.deps.database.db.execute<{ seq: number | null }>(
      sql`select max(seq) as seq from alerts`,
    );
    this.lastSeq ??= Number(rows[0]?.seq ?? 0);
  }

  /** One poll at a time; a wake during one asks for one more. */
  private poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.again = false;
        await this.pollOnce().catch(() => undefined);
      } while (this.again);
    })().finally(() => (this.polling = null));
    return this.polling;
  }

  private async pollOnce() {
    const users = [...this.streams.keys()];
    if (!users.length || this.lastSeq === null) return;
    const db = this.deps.database.db;
    // The top first: alerts past it are the next poll's, so none is skipped between the reads.
    const { rows: top } = await db.execute<{ seq: number | null }>(
      sql`select max(seq) as seq from alerts`,
    );
    const upTo = Number(top[0]?.seq ?? 0);
    if (upTo <= this.lastSeq) return;
    const { rows } = await db.execute<AlertRow & { seq: number; user_id: string }>(sql`
      select ${joinedAlertColumns}, a.seq, d.user_id
      from alerts a join alert_deliveries d on d.alert_id = a.id and d.channel = 'web'
      where a.seq > ${this.lastSeq} and a.seq <= ${upTo}
        and d.user_id = any(${sql.param(users)}::text[])
      order by a.seq`);
    for (const r of rows) this.send(r.user_id, Number(r.seq), alertView(r));
    this.lastSeq = upTo;
  }

  private send(userId: string, seq: number, alert: Alert) {
    const frame = `id: ${seq}\nevent: alert\ndata: ${JSON.stringify({ alert })}\n\n`;
    for (const res of this.streams.get(userId) ?? []) res.write(frame);
  }
}
