// Use case: react to membership changes in bound servers (the gateway's member events).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps, Logger } from '../../deps.ts';
import { backoff } from '../../lib.ts';
import type { MemberEvent } from '../../integrations/chat/port.ts';
import { queueConverge } from './converge-queue.ts';
import type { DeliveryState } from './converge.ts';

/**
 * A member of a bound server changed (a role removed by hand, a join by invite, a kick): the linked
 * buyer is converged again, which repairs a missing role or grants on joining. Events for servers or
 * people we do not know are ignored, and so are events whose roles already agree with the buyer's
 * access: every role we give or take comes back as such an event, and converging on it would read the
 * member from Discord a second time for nothing (a burst of grants in one server then waits on twice
 * the reads Discord allows it, since the limit is per route and server).
 */
export async function onMemberEvent(deps: AppDeps, event: MemberEvent): Promise<void> {
  const discordUserId = event.type === 'member.left' ? event.userId : event.member.userId;
  const db = deps.database.db;
  const found = await db.execute<{ user_id: string }>(sql`
    select l.user_id from discord_links l
    where l.discord_user_id = ${discordUserId}
      and exists (select 1 from community_bindings b where b.guild_id = ${event.guildId})`);
  const userId = found.rows[0]?.user_id;
  if (!userId) return;
  if (
    event.type !== 'member.left' &&
    (await agrees(db, userId, event.guildId, event.member.roleIds))
  )
    return;
  await queueConverge(deps, userId, { cause: 'member_event' });
}

/**
 * Whether the member holding `held` in `guildId` is what converging `userId` would leave: every role
 * their live entitlements there want, and none of the server's managed roles they do not. A delivery
 * recorded as failing is the exception: a converge would record it active (or ended) now, and a
 * refusal (403) has no retry of its own. Other states need no converge from this event: `granting` or
 * none yet means a converge is queued by the purchase; `needs_link`, by the link this event's account
 * came with; `needs_join`, by the join that makes the roles agree (our own add of the member, which
 * records it, or an invite's join, whose event holds no roles and so converges).
 */
async function agrees(db: Tx, userId: string, guildId: string, held: string[]): Promise<boolean> {
  const rows = await db.execute<{
    mine: boolean;
    live: boolean;
    role_ids: string[];
    state: DeliveryState | null;
  }>(sql`
    select e.id is not null as mine,
      coalesce(e.status = 'active' and (e.ends_at is null or e.ends_at > now()), false) as live,
      array(select jsonb_array_elements(b.roles)->>'id') as role_ids, d.state
    from community_bindings b
      left join entitlements e on e.product_id = b.product_id and e.user_id = ${userId}
        and e.kind = 'discord_role'
      left join access_deliveries d on d.entitlement_id = e.id
    where b.guild_id = ${guildId}`);
  const has = new Set(held);
  const wanted = new Set(rows.rows.filter((r) => r.live).flatMap((r) => r.role_ids));
  for (const r of rows.rows) {
    if (r.mine && r.state === 'failing') return false;
    for (const id of r.role_ids) if (has.has(id) !== wanted.has(id)) return false;
  }
  return true;
}

export async function watchMembers(
  deps: AppDeps,
  log: { error(obj: object, msg: string): void },
): Promise<void> {
  await deps.chat.watchMembers((event) => {
    onMemberEvent(deps, event).catch((err: unknown) =>
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'member event failed'),
    );
  });
}

export interface MemberWatch {
  /** Resolves once member events flow (never, when stopped first). */
  readonly connected: Promise<void>;
  /** Ends the retries; an open connection closes with the chat provider. */
  stop(): void;
}

/** An error with its cause (fetch's `fetch failed` hides ECONNREFUSED in it). */
const reason = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message || err.cause.name : null;
  return cause && cause !== err.message ? `${err.message}: ${cause}` : err.message;
};

/**
 * Starts member events without holding the caller: the site serves while Discord is unreachable
 * (ADR 047). A failed start is logged with the provider, the address and the reason, and tried
 * again after 1 s, doubling up to 5 minutes, until it connects or `stop` is called. Once connected,
 * the gateway client keeps the connection (it resumes and reconnects by itself).
 */
export function startMemberWatch(
  deps: AppDeps,
  log: Logger,
  delays: { firstMs?: number; maxMs?: number } = {},
): MemberWatch {
  const firstMs = delays.firstMs ?? 1000;
  const maxMs = delays.maxMs ?? 5 * 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let connect!: () => void;
  const connected = new Promise<void>((resolve) => (connect = resolve));
  const attempt = async (n: number): Promise<void> => {
    try {
      await watchMembers(deps, log);
    } catch (err) {
      if (stopped) return;
      const retryInMs = backoff(n, firstMs, maxMs);
      log.warn(
        {
          provider: deps.config.DISCORD_SANDBOX ? 'sandbox' : 'discord',
          api: deps.config.DISCORD_API_URL,
          attempt: n,
          retryInMs,
          err: reason(err),
        },
        'Discord member events could not start; the site serves meanwhile, retrying',
      );
      timer = setTimeout(() => void attempt(n + 1), retryInMs).unref();
      return;
    }
    if (stopped) return;
    if (n > 1)
      log.info(
        { provider: deps.config.DISCORD_SANDBOX ? 'sandbox' : 'discord', attempts: n },
        'Discord member events started',
      );
    connect();
  };
  void attempt(1);
  return {
    connected,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
