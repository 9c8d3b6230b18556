// The engine's endpoints and delivery log, read and written for a slice on behalf of one owner
// (ADR 057). Every query names the owner, so another owner's endpoint id is simply not found.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { newId } from '../lib.ts';

export interface Owner {
  kind: string;
  id: string;
}

export interface EndpointRow extends Record<string, unknown> {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: Date | string;
}

export interface MessageRow extends Record<string, unknown> {
  seq: number;
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date | string;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string;
  delivered_at: Date | string | null;
}

const endpointColumns = sql`id, url, description, event_types, enabled, disabled_reason,
  consecutive_failures, created_at`;
const messageColumns = sql`seq, id, event_id, type, status, attempts, last_status, last_error,
  created_at, last_attempt_at, next_attempt_at, delivered_at`;

export async function countEndpoints(db: Db | Tx, owner: Owner): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n
    from webhook_endpoints where owner_kind = ${owner.kind} and owner_id = ${owner.id}`);
  return rows[0]!.n;
}

export async function listEndpoints(db: Db | Tx, owner: Owner): Promise<EndpointRow[]> {
  const { rows } = await db.execute<EndpointRow>(sql`select ${endpointColumns}
    from webhook_endpoints where owner_kind = ${owner.kind} and owner_id = ${owner.id}
    order by created_at, id`);
  return rows;
}

export async function endpointOf(
  db: Db | Tx,
  owner: Owner,
  id: string,
): Promise<(EndpointRow & { secret_sealed: string }) | null> {
  const { rows } = await db.execute<EndpointRow & { secret_sealed: string }>(sql`
    select ${endpointColumns}, secret_sealed from webhook_endpoints
    where id = ${id} and owner_kind = ${owner.kind} and owner_id = ${owner.id}`);
  return rows[0] ?? null;
}

export async function insertEndpoint(
  db: Db | Tx,
  owner: Owner,
  input: { url: string; description: string; eventTypes: string[]; enabled: boolean },
  secretSealed: string,
): Promise<EndpointRow> {
  const { rows } = await db.execute<EndpointRow>(sql`
    insert into webhook_endpoints (id, owner_kind, owner_id, url, description, event_types, enabled,
      secret_sealed)
    values (${newId('whe')}, ${owner.kind}, ${owner.id}, ${input.url}, ${input.description},
      ${sql.param(input.eventTypes)}::text[], ${input.enabled}, ${secretSealed})
    returning ${endpointColumns}`);
  return rows[0]!;
}

/** Applies the given fields; turning it on clears the failure count and the reason it was off. */
export async function updateEndpoint(
  db: Db | Tx,
  owner: Owner,
  id: string,
  patch: { url?: string; description?: string; eventTypes?: string[]; enabled?: boolean },
): Promise<EndpointRow | null> {
  const { rows } = await db.execute<EndpointRow>(sql`
    update webhook_endpoints set
      url = coalesce(${patch.url ?? null}, url),
      description = coalesce(${patch.description ?? null}, description),
      event_types = coalesce(${patch.eventTypes ? sql`${sql.param(patch.eventTypes)}::text[]` : null}, event_types),
      enabled = coalesce(${patch.enabled ?? null}::boolean, enabled),
      consecutive_failures = case when ${patch.enabled === true} and not enabled then 0
        else consecutive_failures end,
      disabled_reason = case when ${patch.enabled === true} then null else disabled_reason end,
      disabled_at = case when ${patch.enabled === true} then null else disabled_at end,
      updated_at = now()
    where id = ${id} and owner_kind = ${owner.kind} and owner_id = ${owner.id}
    returning ${endpointColumns}`);
  return rows[0] ?? null;
}

export async function deleteEndpoint(db: Db | Tx, owner: Owner, id: string): Promise<boolean> {
  const { rows } = await db.execute(sql`delete from webhook_endpoints
    where id = ${id} and owner_kind = ${owner.kind} and owner_id = ${owner.id} returning id`);
  return rows.length > 0;
}

/** The owner's enabled endpoints that take `type`, for a fan-out in `tx`. */
export async function subscribedEndpoints(tx: Tx, owner: Owner, type: string): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string }>(sql`select id from webhook_endpoints
    where owner_kind = ${owner.kind} and owner_id = ${owner.id} and enabled
      and ${type} = any(event_types)`);
  return rows.map((r) => r.id);
}

/** An endpoint's log, newest first, after `before` (a `seq`). */
export async function messagesOf(
  db: Db | Tx,
  endpointId: string,
  limit: number,
  before: number | null,
): Promise<MessageRow[]> {
  const { rows } = await db.execute<MessageRow>(sql`select ${messageColumns} from webhook_messages
    where endpoint_id = ${endpointId} ${before !== null ? sql`and seq < ${before}` : sql``}
    order by seq desc limit ${limit}`);
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

export async function messageOf(db: Db | Tx, endpointId: string, id: string) {
  const { rows } = await db.execute<MessageRow>(sql`select ${messageColumns} from webhook_messages
    where endpoint_id = ${endpointId} and id = ${id}`);
  return rows[0] ? { ...rows[0], seq: Number(rows[0].seq) } : null;
}

/** One event's messages to the given endpoints: each endpoint's delivery state (alerts, ADR 059). */
export async function eventMessages(
  db: Db | Tx,
  eventIds: readonly string[],
  endpointIds: readonly string[],
): Promise<
  Array<{
    event_id: string;
    endpoint_id: string;
    status: MessageRow['status'];
    last_error: string | null;
  }>
> {
  if (!eventIds.length || !endpointIds.length) return [];
  const { rows } = await db.execute<{
    event_id: string;
    endpoint_id: string;
    status: MessageRow['status'];
    last_error: string | null;
  }>(sql`select event_id, endpoint_id, status, last_error from webhook_messages
    where event_id = any(${sql.param([...eventIds])}::text[])
      and endpoint_id = any(${sql.param([...endpointIds])}::text[])`);
  return rows;
}

/** Counts of events' messages by state and last error, for a sender's fan-out view. */
export async function eventMessageCounts(
  db: Db | Tx,
  eventIds: readonly string[],
  ownerKind: string,
): Promise<
  Array<{ event_id: string; status: MessageRow['status']; last_error: string | null; n: number }>
> {
  if (!eventIds.length) return [];
  const { rows } = await db.execute<{
    event_id: string;
    status: MessageRow['status'];
    last_error: string | null;
    n: number;
  }>(sql`select m.event_id, m.status, m.last_error, count(*)::int as n
    from webhook_messages m join webhook_endpoints e on e.id = m.endpoint_id
    where m.event_id = any(${sql.param([...eventIds])}::text[]) and e.owner_kind = ${ownerKind}
    group by m.event_id, m.status, m.last_error`);
  return rows;
}

/** The ids of an endpoint's messages that gave up, oldest first. */
export async function failedMessageIds(db: Db | Tx, endpointId: string): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`select id from webhook_messages
    where endpoint_id = ${endpointId} and status = 'failed' order by seq`);
  return rows.map((r) => r.id);
}
