// Use case: bring one user's Discord roles to what their entitlements say (level-triggered).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { ChatError, type ChatMember } from '../../integrations/chat/port.ts';
import { newId } from '../../lib.ts';
import type { ConvergeCause } from './converge-queue.ts';
import { joinToken } from './discord-link.ts';

export type DeliveryState =
  'granting' | 'active' | 'needs_link' | 'needs_join' | 'failing' | 'ended';
type EventType = 'granted' | 'revoked' | 'repaired' | 'failed' | 'needs_buyer';
interface Role {
  id: string;
  name: string;
}

interface EntRow extends Record<string, unknown> {
  id: string;
  live: boolean;
  guild_id: string | null;
  guild_name: string | null;
  roles: Role[] | null;
  state: DeliveryState | null;
  attempts: number | null;
}

/** The n-th failure in a row waits 30 s · 2^(n−1), at most an hour (the job queue retries sooner). */
const retryDelayMs = (attempts: number) =>
  Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

export const NOT_BOUND_REASON = 'not_bound';

/**
 * Reads the entitlements when it runs (a grant that raced a revoke ends without the role) under a
 * per-user lock, acts, and records each entitlement's health and what changed. Running it twice
 * changes nothing. Throws when a retry may help (rate limited, Discord down) so the queue retries.
 */
export async function convergeUser(
  deps: AppDeps,
  userId: string,
  options: { formerDiscordUserId?: string | null; cause: ConvergeCause },
): Promise<void> {
  let retry: ChatError | null = null;
  await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`access:${userId}`}, 0))`);
    const ents = (
      await tx.execute<EntRow>(sql`
        select e.id, (e.status = 'active' and (e.ends_at is null or e.ends_at > now())) as live,
          b.guild_id, b.guild_name, b.roles, d.state, d.attempts
        from entitlements e
          left join community_bindings b on b.product_id = e.product_id
          left join access_deliveries d on d.entitlement_id = e.id
        where e.user_id = ${userId} and e.kind = 'discord_role'
        order by e.created_at`)
    ).rows;
    const link = (
      await tx.execute<{ discord_user_id: string }>(
        sql`select discord_user_id from discord_links where user_id = ${userId}`,
      )
    ).rows[0];
    const guilds = [...new Set(ents.flatMap((e) => (e.guild_id ? [e.guild_id] : [])))];
    const managedOf = await managedRoles(tx, guilds);

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
        await record(
          tx,
          e.id,
          'revoked',
          'Roles removed from the Discord account that was unlinked.',
        );
    }

    for (const e of ents.filter((x) => !x.guild_id))
      await setState(
        tx,
        userId,
        e,
        e.live ? 'granting' : 'ended',
        e.live ? NOT_BOUND_REASON : null,
      );
    if (!link) {
      for (const e of ents.filter((x) => x.guild_id)) {
        if (e.live && e.state !== 'needs_link')
          await record(tx, e.id, 'needs_buyer', 'Waiting for the buyer to connect Discord.');
        await setState(tx, userId, e, e.live ? 'needs_link' : 'ended', null);
      }
      return;
    }

    for (const guildId of guilds) {
      const inGuild = ents.filter((e) => e.guild_id === guildId);
      const live = inGuild.filter((e) => e.live);
      const guildName = inGuild[0]!.guild_name!;
      const desired = uniqueRoles(live.flatMap((e) => e.roles ?? []));
      const managed = managedOf.get(guildId) ?? [];
      try {
        let member: ChatMember | null = await deps.chat.member(guildId, link.discord_user_id);
        if (!member && desired.length) {
          const token = await joinToken(deps, userId);
          if (token) {
            const ids = desired.map((r) => r.id);
            const added = await deps.chat.addMember(guildId, link.discord_user_id, token, ids);
            // Discord ignores `roles` for someone already in; they get them one by one below.
            member = { userId: link.discord_user_id, roleIds: added === 'added' ? ids : [] };
            if (added === 'added')
              for (const e of live)
                await record(tx, e.id, 'granted', `Added to ${guildName} with ${names(desired)}.`);
          }
        }
        if (!member) {
          for (const e of inGuild) {
            if (e.live && e.state !== 'needs_join')
              await record(tx, e.id, 'needs_buyer', `Waiting for the buyer to join ${guildName}.`);
            await setState(tx, userId, e, e.live ? 'needs_join' : 'ended', null);
          }
          continue;
        }
        const held = new Set(member.roleIds);
        const toAdd = desired.filter((r) => !held.has(r.id));
        const wanted = new Set(desired.map((r) => r.id));
        const toRemove = managed.filter((r) => held.has(r.id) && !wanted.has(r.id));
        for (const r of toAdd)
          await deps.chat.addRole(guildId, link.discord_user_id, r.id, 'Tradeshelf: paid access');
        for (const r of toRemove)
          await deps.chat.removeRole(
            guildId,
            link.discord_user_id,
            r.id,
            'Tradeshelf: access ended',
          );
        const repair = options.cause === 'member_event' || options.cause === 'reconnect';
        if (toAdd.length)
          for (const e of live)
            await record(
              tx,
              e.id,
              repair && e.state === 'active' ? 'repaired' : 'granted',
              `${names(toAdd)} given in ${guildName}.`,
            );
        if (toRemove.length)
          for (const e of inGuild.filter((x) => !x.live))
            await record(tx, e.id, 'revoked', `${names(toRemove)} removed in ${guildName}.`);
        for (const e of inGuild) await setState(tx, userId, e, e.live ? 'active' : 'ended', null);
      } catch (err) {
        if (!(err instanceof ChatError)) throw err;
        if (err.retryable) retry ??= err;
        for (const e of live) {
          await record(tx, e.id, 'failed', err.message);
          await setState(tx, userId, e, 'failing', err.message);
        }
      }
    }
  });
  if (retry) throw retry;
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
