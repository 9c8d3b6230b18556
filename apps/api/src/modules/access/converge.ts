// Use case: bring one user's Discord roles to what their entitlements say (level-triggered).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { ChatError, type ChatMember } from '../../integrations/chat/port.ts';
import { backoff, newId } from '../../lib.ts';
import {
  queueConverge,
  type ConvergeCause,
  type ConvergeOptions,
  type EntitlementChange,
} from './converge-queue.ts';
import { joinToken } from './discord-link.ts';
import { DISCORD_EVENT_TYPES } from './event-types.ts';

export type DeliveryState =
  'granting' | 'active' | 'needs_link' | 'needs_join' | 'failing' | 'ended';
type EventType = 'granted' | 'revoked' | 'repaired' | 'failed' | 'needs_buyer';
interface Role {
  id: string;
  name: string;
}

interface EntRow extends Record<string, unknown> {
  id: string;
  purchase_id: string;
  product_id: string;
  vendor_id: string | null;
  live: boolean;
  guild_id: string | null;
  guild_name: string | null;
  roles: Role[] | null;
  state: DeliveryState | null;
  attempts: number | null;
}

/** The n-th failure in a row waits 30 s · 2^(n−1), at most an hour (the job queue retries sooner). */
const retryDelayMs = (attempts: number) => backoff(attempts, 30_000, 3_600_000);

export const NOT_BOUND_REASON = 'not_bound';

/** What one pass read: what the buyer should hold, and with which account. */
interface Desired {
  ents: EntRow[];
  link: { discord_user_id: string } | undefined;
  guilds: string[];
  managedOf: Map<string, Role[]>;
}

async function readDesired(db: Tx, userId: string): Promise<Desired> {
  const ents = (
    await db.execute<EntRow>(sql`
      select e.id, e.purchase_id, e.product_id, b.vendor_id,
        (e.status = 'active' and (e.ends_at is null or e.ends_at > now())) as live, b.guild_id, b.guild_name, b.roles, d.state, d.attempts
      from entitlements e
        left join community_bindings b on b.product_id = e.product_id
        left join access_deliveries d on d.entitlement_id = e.id
      where e.user_id = ${userId} and e.kind = 'discord_role'
      order by e.created_at`)
  ).rows;
  const link = (
    await db.execute<{ discord_user_id: string }>(
      sql`select discord_user_id from discord_links where user_id = ${userId}`,
    )
  ).rows[0];
  const guilds = [...new Set(ents.flatMap((e) => (e.guild_id ? [e.guild_id] : [])))];
  return { ents, link, guilds, managedOf: await managedRoles(db, guilds) };
}

/** The part of what was read that decides what Discord should hold. */
const fingerprint = (d: Desired) =>
  JSON.stringify([
    d.link?.discord_user_id ?? null,
    d.ents.map((e) => [e.id, e.live, e.guild_id, e.roles]),
    [...d.managedOf.entries()],
  ]);

/** Most passes a converge makes when its input keeps changing under it before it hands over. */
const MAX_PASSES = 3;

/**
 * Reads the entitlements when it runs, acts on Discord, then reads them again: when they changed
 * meanwhile (a revoke committed while a grant was on its way) it acts again, so a grant that raced a
 * revoke ends without the role. No transaction is held across Discord calls (the sandbox, served by
 * this process, needs a connection to answer; so does everyone else). Health and history are written
 * in one short transaction at the end. Running it twice changes nothing. Throws when a retry may help
 * (rate limited, Discord down) so the queue retries.
 */
export async function convergeUser(
  deps: AppDeps,
  userId: string,
  options: ConvergeOptions,
): Promise<void> {
  const db = deps.database.db;
  let desired = await readDesired(db, userId);
  for (let pass = 1; ; pass++) {
    const outcome = await act(deps, userId, desired, options);
    const now = await readDesired(db, userId);
    const settled = fingerprint(now) === fingerprint(desired);
    if (settled || pass >= MAX_PASSES) {
      const queued = await db.transaction(async (tx) => {
        // Two runs for one buyer (a web node's in-line one, the worker's) may finish together: their
        // records are written one after the other, so the second sees what the first recorded.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`access.converge:${userId}`}))`,
        );
        for (const write of outcome.writes) await write(tx);
        return deps.events.queuedIn(tx);
      });
      await deps.events.notify(queued);
      // The change goes on with whichever run will finish the work: the queue's retry or this one.
      if (!settled)
        await queueConverge(deps, userId, {
          cause: 'retry',
          change: outcome.retry ? null : options.change,
        });
      if (outcome.retry) throw outcome.retry;
      if (settled && options.change) observeLag(deps, options.change, outcome.states);
      return;
    }
    desired = now;
  }
}

/** One pass against Discord; what to record is returned, not written. */
async function act(
  deps: AppDeps,
  userId: string,
  { ents, link, guilds, managedOf }: Desired,
  options: { formerDiscordUserId?: string | null; cause: ConvergeCause },
): Promise<{
  writes: Array<(tx: Tx) => Promise<void>>;
  retry: ChatError | null;
  states: Array<{ purchaseId: string; state: DeliveryState }>;
}> {
  const writes: Array<(tx: Tx) => Promise<void>> = [];
  const states: Array<{ purchaseId: string; state: DeliveryState }> = [];
  const byId = new Map(ents.map((e) => [e.id, e]));
  const log = (id: string, type: EventType, detail: string) =>
    writes.push(async (tx) => {
      // A grant another run recorded since this one read the state is the same grant: once.
      if (type === 'granted' && (await grantedMeanwhile(tx, byId.get(id)))) return;
      await record(tx, id, type, detail);
      await publishAccess(deps, tx, userId, byId.get(id), type, detail);
    });
  const state = (e: EntRow, to: DeliveryState, reason: string | null) => {
    states.push({ purchaseId: e.purchase_id, state: to });
    writes.push((tx) => setState(tx, userId, e, to, reason));
  };
  let retry: ChatError | null = null;

  // An account unlinked or replaced keeps none of the roles we gave it.
  const former = options.formerDiscordUserId;
  if (former && former !== link?.discord_user_id) {
    for (const guildId of guilds)
      for (const role of managedOf.get(guildId) ?? [])
        await deps.chat.removeRole(
          guildId,
          former,
          role.id,
          'Tradeshelf: Discord account unlinked',
        );
    for (const e of ents.filter((x) => x.guild_id))
      log(e.id, 'revoked', 'Roles removed from the Discord account that was unlinked.');
  }

  for (const e of ents.filter((x) => !x.guild_id))
    state(e, e.live ? 'granting' : 'ended', e.live ? NOT_BOUND_REASON : null);
  if (!link) {
    for (const e of ents.filter((x) => x.guild_id)) {
      if (e.live && e.state !== 'needs_link')
        log(e.id, 'needs_buyer', 'Waiting for the buyer to connect Discord.');
      state(e, e.live ? 'needs_link' : 'ended', null);
    }
    return { writes, retry, states };
  }

  for (const guildId of guilds) {
    const inGuild = ents.filter((e) => e.guild_id === guildId);
    const live = inGuild.filter((e) => e.live);
    const guildName = inGuild[0]!.guild_name!;
    const wanted = uniqueRoles(live.flatMap((e) => e.roles ?? []));
    const managed = managedOf.get(guildId) ?? [];
    try {
      let member: ChatMember | null = await deps.chat.member(guildId, link.discord_user_id);
      if (!member && wanted.length) {
        const token = await joinToken(deps, userId);
        if (token) {
          const ids = wanted.map((r) => r.id);
          const added = await deps.chat.addMember(guildId, link.discord_user_id, token, ids);
          // Discord ignores `roles` for someone already in (joined meanwhile, perhaps by another run
          // with these roles): what they hold is read again, and the rest given one by one below.
          member =
            added === 'added'
              ? { userId: link.discord_user_id, roleIds: ids }
              : ((await deps.chat.member(guildId, link.discord_user_id)) ?? {
                  userId: link.discord_user_id,
                  roleIds: [],
                });
          if (added === 'added')
            for (const e of live)
              log(e.id, 'granted', `Added to ${guildName} with ${names(wanted)}.`);
        }
      }
      if (!member) {
        for (const e of inGuild) {
          if (e.live && e.state !== 'needs_join')
            log(e.id, 'needs_buyer', `Waiting for the buyer to join ${guildName}.`);
          state(e, e.live ? 'needs_join' : 'ended', null);
        }
        continue;
      }
      const held = new Set(member.roleIds);
      const toAdd = wanted.filter((r) => !held.has(r.id));
      const wantedIds = new Set(wanted.map((r) => r.id));
      const toRemove = managed.filter((r) => held.has(r.id) && !wantedIds.has(r.id));
      for (const r of toAdd)
        await deps.chat.addRole(guildId, link.discord_user_id, r.id, 'Tradeshelf: paid access');
      for (const r of toRemove)
        await deps.chat.removeRole(guildId, link.discord_user_id, r.id, 'Tradeshelf: access ended');
      const repair = options.cause === 'member_event' || options.cause === 'reconnect';
      if (toAdd.length)
        for (const e of live)
          log(
            e.id,
            repair && e.state === 'active' ? 'repaired' : 'granted',
            `${names(toAdd)} given in ${guildName}.`,
          );
      if (toRemove.length)
        for (const e of inGuild.filter((x) => !x.live))
          log(e.id, 'revoked', `${names(toRemove)} removed in ${guildName}.`);
      for (const e of inGuild) state(e, e.live ? 'active' : 'ended', null);
    } catch (err) {
      if (!(err instanceof ChatError)) throw err;
      if (err.retryable) retry ??= err;
      for (const e of live) {
        log(e.id, 'failed', err.message);
        state(e, 'failing', err.message);
      }
    }
  }
  return { writes, retry, states };
}

/** The events that change a Discord entitlement: the lag histogram's `event` values. */
const CHANGE_EVENTS = new Set<string>(DISCORD_EVENT_TYPES);

/**
 * Entitlement convergence lag: from the event to this converge, which left the purchase's roles
 * `in_line` with its entitlements, or could not: waiting for the buyer to link or join
 * (`needs_buyer`), a product bound to no server (`not_bound`), Discord refusing (`failing`).
 */
function observeLag(
  deps: AppDeps,
  change: EntitlementChange,
  states: Array<{ purchaseId: string; state: DeliveryState }>,
): void {
  const mine = new Set(
    states.filter((s) => s.purchaseId === change.purchaseId).map((s) => s.state),
  );
  const outcome = mine.has('failing')
    ? 'failing'
    : mine.has('needs_link') || mine.has('needs_join')
      ? 'needs_buyer'
      : mine.has('granting')
        ? 'not_bound'
        : 'in_line';
  const seconds = (Date.now() - Date.parse(change.at)) / 1000;
  if (!Number.isFinite(seconds)) return;
  deps.metrics.entitlementLag.observe(
    { event: CHANGE_EVENTS.has(change.event) ? change.event : 'other', outcome },
    Math.max(0, seconds),
  );
}

/**
 * What the vendor's webhooks hear of it (ADR 057): a grant, the first failure of a streak (retries
 * are not news), a role removed. Repairs and waits for the buyer are not published.
 */
async function publishAccess(
  deps: AppDeps,
  tx: Tx,
  buyerId: string,
  e: EntRow | undefined,
  type: EventType,
  detail: string,
): Promise<void> {
  if (!e?.vendor_id) return;
  const ref = {
    entitlementId: e.id,
    purchaseId: e.purchase_id,
    productId: e.product_id,
    vendorId: e.vendor_id,
    buyerId,
    kind: 'discord_role' as const,
    detail,
  };
  if (type === 'granted') await deps.events.publish(tx, 'access.granted', e.id, ref);
  else if (type === 'revoked') await deps.events.publish(tx, 'access.ended', e.id, ref);
  else if (type === 'failed' && e.state !== 'failing')
    await deps.events.publish(tx, 'access.failed', e.id, { ...ref, reason: detail });
}

const names = (roles: Role[]) => roles.map((r) => `“${r.name}”`).join(', ');

function uniqueRoles(roles: Role[]): Role[] {
  const seen = new Map<string, Role>();
  for (const r of roles) seen.set(r.id, r);
  return [...seen.values()];
}

/** Every role any product binds in each guild: the roles this platform manages there. */
export async function managedRoles(tx: Tx, guildIds: string[]): Promise<Map<string, Role[]>> {
  const out = new Map<string, Role[]>();
  if (!guildIds.length) return out;
  const found = await tx.execute<{ guild_id: string; roles: Role[] }>(
    sql`select guild_id, roles from community_bindings where guild_id = any(${sql.param(guildIds)}::text[])`,
  );
  for (const r of found.rows)
    out.set(r.guild_id, uniqueRoles([...(out.get(r.guild_id) ?? []), ...r.roles]));
  return out;
}

/** Whether another run made the delivery active after this one read it as something else. */
async function grantedMeanwhile(tx: Tx, e: EntRow | undefined): Promise<boolean> {
  if (!e || e.state === 'active') return false;
  const { rows } = await tx.execute<{ state: string }>(
    sql`select state from access_deliveries where entitlement_id = ${e.id}`,
  );
  return rows[0]?.state === 'active';
}

export async function record(tx: Tx, entitlementId: string, type: EventType, detail: string) {
  await tx.execute(sql`insert into access_events (id, entitlement_id, type, detail)
    values (${newId('acc')}, ${entitlementId}, ${type}, ${detail})`);
}

async function setState(
  tx: Tx,
  userId: string,
  e: EntRow,
  state: DeliveryState,
  reason: string | null,
): Promise<void> {
  const attempts = state === 'failing' ? (e.attempts ?? 0) + 1 : 0;
  const nextRetryAt = state === 'failing' ? new Date(Date.now() + retryDelayMs(attempts)) : null;
  await tx.execute(sql`insert into access_deliveries (entitlement_id, user_id, state, reason, next_retry_at,
      attempts, checked_at)
    values (${e.id}, ${userId}, ${state}, ${reason}, ${nextRetryAt}, ${attempts}, now())
    on conflict (entitlement_id) do update set state = excluded.state, reason = excluded.reason,
      next_retry_at = excluded.next_retry_at, attempts = excluded.attempts, checked_at = now(),
      updated_at = case when access_deliveries.state = excluded.state then access_deliveries.updated_at else now() end`);
}
