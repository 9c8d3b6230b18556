// The outbound webhook engine (ADR 057): an outbox of messages per endpoint, delivered at least
// once as signed POSTs, in order per object, retried with backoff for a day; an endpoint that keeps
// failing is turned off and its owner told. Slices bring their endpoints (an `owner_kind` each) and
// decide what to enqueue; this file knows nothing of vendors or sales.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { backoff, inLanes, newId, SingleRun } from '../lib.ts';
import { OutboundRefused, postOutbound, type OutboundPolicy } from '../platform/outbound-url.ts';
import type { Sealer } from '../platform/seal.ts';
import { newWebhookSecret, signedHeaders } from './signing.ts';

export interface DisabledEndpoint {
  id: string;
  ownerId: string;
  url: string;
  consecutiveFailures: number;
}

/** What a slice offering webhooks tells the engine. */
export interface WebhookOwner {
  /**
   * The endpoint was just turned off for failing, in `tx`: queue the owner's e-mail there. The
   * returned function runs after the commit (to dispatch that mail).
   */
  onDisabled(tx: Tx, endpoint: DisabledEndpoint): Promise<(() => Promise<void>) | void>;
}

export interface WebhookSettings {
  policy: OutboundPolicy;
  /** How long one attempt may take. */
  timeoutMs: number;
  /** Failed attempts in a row (any message) after which an endpoint is turned off. */
  disableAfter: number;
  /** How long after it was queued (or resent) a message is retried. */
  retryHours: number;
  /** Wait before the first retry, doubling each time, at most `maxRetryWaitMs`. */
  firstRetryWaitMs: number;
  maxRetryWaitMs: number;
}

export interface NewMessage {
  /** The event's id (the payload's `id`), the same for every endpoint. */
  eventId: string;
  type: string;
  version: number;
  /** The object the event is about: its messages to one endpoint go out in order. */
  objectKey: string;
  createdAt: string;
  data: unknown;
}

interface ClaimedRow extends Record<string, unknown> {
  seq: number;
  id: string;
  body: string;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  owner_kind: string;
  created_at: Date | string;
}

/** Messages one pass sends side by side: the work is waiting on endpoints. */
const DELIVERING = 8;
/** A claimed message is not due again for this long (a worker that dies mid-POST loses nothing). */
const LEASE_SECONDS = 120;

export class WebhookEngine {
  private readonly runs = new SingleRun();

  constructor(
    private readonly settings: WebhookSettings,
    private readonly sealer: Sealer,
    private readonly owners: Record<string, WebhookOwner>,
    /** Asks a worker to deliver soon, in `tx` when given (the job exists only if it commits). */
    private readonly wake: (tx?: Tx) => Promise<void>,
    /** Each attempt's outcome, and a delivery's seconds since queueing (metrics). */
    private readonly observe: (
      owner: string,
      outcome: 'delivered' | 'failed',
      lagSeconds: number | null,
    ) => void = () => undefined,
  ) {}

  get policy(): OutboundPolicy {
    return this.settings.policy;
  }

  /** A new endpoint secret and its sealed form to store. */
  newSecret(): { secret: string; sealed: string } {
    const secret = newWebhookSecret();
    return { secret, sealed: this.sealer.seal(secret) };
  }

  openSecret(sealed: string): string {
    const secret = this.sealer.open(sealed);
    if (!secret) throw new Error('webhook secret sealed under another key');
    return secret;
  }

  /**
   * Queues `message` to each endpoint in `tx`, once per endpoint and event however often this is
   * called, and wakes delivery when the transaction commits. Answers the `webhook-id`s queued.
   */
  async enqueue(tx: Tx, endpointIds: readonly string[], message: NewMessage): Promise<string[]> {
    if (!endpointIds.length) return [];
    const body = JSON.stringify({
      id: message.eventId,
      type: message.type,
      version: message.version,
      createdAt: message.createdAt,
      data: message.data,
    });
    const ids = endpointIds.map(() => newId('msg'));
    const inserted = await tx.execute<{ id: string }>(sql`
      insert into webhook_messages (id, endpoint_id, event_id, type, object_key, body, give_up_at)
      select m.id, m.endpoint_id, ${message.eventId}, ${message.type}, ${message.objectKey}, ${body},
        now() + make_interval(hours => ${this.settings.retryHours})
      from unnest(${sql.param(ids)}::text[], ${sql.param([...endpointIds])}::text[]) as m (id, endpoint_id)
      on conflict (endpoint_id, event_id) do nothing
      returning id`);
    if (inserted.rows.length) await this.wake(tx);
    return inserted.rows.map((r) => r.id);
  }

  /**
   * Sends a message again with the same `webhook-id` and body: pending now, retried for another
   * day. Null when the endpoint has no such message.
   */
  async resend(db: Db, endpointId: string, messageId: string): Promise<boolean> {
    const done = await db.transaction(async (tx) => {
      const { rows } = await tx.execute(sql`update webhook_messages
        set status = 'pending', next_attempt_at = now(), delivered_at = null,
          give_up_at = now() + make_interval(hours => ${this.settings.retryHours})
        where id = ${messageId} and endpoint_id = ${endpointId}
        returning id`);
      if (rows.length) await this.wake(tx);
      return rows.length > 0;
    });
    return done;
  }

  /** One delivery run per process; a call during a run asks it for one more pass and joins it. */
  deliverInRun(db: Db): Promise<void> {
    return this.runs.run(() => this.deliverDue(db));
  }

  /**
   * Sends what is due, oldest first, until nothing is or `limit` attempts were made. Safe in several
   * workers at once: each message is claimed (leased) by one. A message is due only when no earlier
   * message of its object to its endpoint is still pending, so an object's events arrive in order.
   */
  async deliverDue(db: Db, limit = 500): Promise<{ delivered: number; failed: number }> {
    const done = { delivered: 0, failed: 0 };
    const tried = new Set<number>();
    while (done.delivered + done.failed < limit) {
      const due = (
        await db.execute<{ seq: number }>(sql`
          select m.seq from webhook_messages m join webhook_endpoints e on e.id = m.endpoint_id
          where m.status = 'pending' and m.next_attempt_at <= now() and e.enabled
            and not exists (select 1 from webhook_messages p
              where p.endpoint_id = m.endpoint_id and p.object_key = m.object_key
                and p.seq < m.seq and p.status = 'pending')
          order by m.next_attempt_at, m.seq
          limit 100`)
      ).rows.filter((r) => !tried.has(Number(r.seq)));
      if (!due.length) break;
      for (const r of due) tried.add(Number(r.seq));
      await inLanes(due, DELIVERING, async (row) => {
        const outcome = await this.deliverOne(db, Number(row.seq));
        if (outcome === 'delivered') done.delivered++;
        else if (outcome === 'failed') done.failed++;
      });
    }
    return done;
  }

  private async deliverOne(db: Db, seq: number): Promise<'delivered' | 'failed' | 'skipped'> {
    // The claim re-checks everything the scan saw, under the row's lock: another worker's claim,
    // an earlier message of the object queued again meanwhile, an endpoint turned off.
    const claimed = (
      await db.execute<ClaimedRow>(sql`
        update webhook_messages m
        set next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
        from webhook_endpoints e
        where m.seq = ${seq} and m.status = 'pending' and m.next_attempt_at <= now()
          and e.id = m.endpoint_id and e.enabled
          and not exists (select 1 from webhook_messages p
            where p.endpoint_id = m.endpoint_id and p.object_key = m.object_key
              and p.seq < m.seq and p.status = 'pending')
        returning m.seq, m.id, m.body, m.endpoint_id, e.url, e.secret_sealed, e.owner_kind,
          m.created_at`)
    ).rows[0];
    if (!claimed) return 'skipped';
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers = signedHeaders(
        this.openSecret(claimed.secret_sealed),
        claimed.id,
        claimed.body,
      );
      const res = await postOutbound(claimed.url, headers, claimed.body, {
        ...this.settings.policy,
        timeoutMs: this.settings.timeoutMs,
      });
      status = res.status;
      if (status < 200 || status >= 300)
        error =
          status >= 300 && status < 400
            ? `HTTP ${status} (redirects are not followed)`
            : `HTTP ${status}`;
    } catch (err) {
      error =
        err instanceof OutboundRefused
          ? `Refused: ${err.message}`
          : (err instanceof Error ? err.message : String(err)).slice(0, 300);
    }
    if (error !== null) {
      this.observe(claimed.owner_kind, 'failed', null);
      return this.recordFailure(db, claimed, status, error);
    }
    const done = await this.recordSuccess(db, claimed, status!);
    const lag = (Date.now() - new Date(claimed.created_at).getTime()) / 1000;
    this.observe(claimed.owner_kind, 'delivered', Math.max(0, lag));
    return done;
  }

  private async recordSuccess(db: Db, m: ClaimedRow, status: number): Promise<'delivered'> {
    await db.transaction(async (tx) => {
      await tx.execute(sql`update webhook_messages set status = 'delivered', attempts = attempts + 1,
          last_status = ${status}, last_error = null, last_attempt_at = now(), delivered_at = now()
        where seq = ${m.seq}`);
      await tx.execute(sql`update webhook_endpoints set consecutive_failures = 0
        where id = ${m.endpoint_id} and consecutive_failures <> 0`);
    });
    return 'delivered';
  }

  private async recordFailure(
    db: Db,
    m: ClaimedRow,
    status: number | null,
    error: string,
  ): Promise<'failed'> {
    const { firstRetryWaitMs, maxRetryWaitMs, disableAfter } = this.settings;
    const after = await db.transaction(async (tx) => {
      // `attempts` in the expression is the count before this one.
      await tx.execute(sql`update webhook_messages set attempts = attempts + 1,
          last_status = ${status}, last_error = ${error}, last_attempt_at = now(),
          status = case when give_up_at <= now() then 'failed' else 'pending' end,
          next_attempt_at = now() + make_interval(secs => least(${maxRetryWaitMs / 1000},
            ${firstRetryWaitMs / 1000} * power(2, attempts)))
        where seq = ${m.seq}`);
      const ended = (
        await tx.execute<{ id: string; owner_id: string; url: string; failures: number }>(sql`
          update webhook_endpoints set consecutive_failures = consecutive_failures + 1,
            enabled = case when consecutive_failures + 1 >= ${disableAfter} then false else enabled end,
            disabled_reason = case when consecutive_failures + 1 >= ${disableAfter} and enabled
              then 'failing' else disabled_reason end,
            disabled_at = case when consecutive_failures + 1 >= ${disableAfter} and enabled
              then now() else disabled_at end,
            updated_at = now()
          where id = ${m.endpoint_id}
          returning id, owner_id, url, consecutive_failures as failures,
            (consecutive_failures = ${disableAfter}) as just_disabled`)
      ).rows[0] as
        | { id: string; owner_id: string; url: string; failures: number; just_disabled: boolean }
        | undefined;
      if (!ended?.just_disabled) return undefined;
      return this.owners[m.owner_kind]?.onDisabled(tx, {
        id: ended.id,
        ownerId: ended.owner_id,
        url: ended.url,
        consecutiveFailures: ended.failures,
      });
    });
    if (after) await after();
    return 'failed';
  }
}

/** The retry wait before attempt `n + 1` (for docs and tests), as the SQL above computes it. */
export const retryWaitMs = (settings: WebhookSettings, attemptsSoFar: number) =>
  backoff(attemptsSoFar, settings.firstRetryWaitMs, settings.maxRetryWaitMs);
