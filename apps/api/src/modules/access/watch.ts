// Use case: react to membership changes in bound servers (the gateway's member events).
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { MemberEvent } from '../../integrations/chat/port.ts';
import { queueConverge } from './converge-queue.ts';

/**
 * A member of a bound server changed (a role removed by hand, a join by invite, a kick): the linked
 * buyer is converged again, which repairs a missing role or grants on joining. Events for servers or
 * people we do not know are ignored.
 */
export async function onMemberEvent(deps: AppDeps, event: MemberEvent): Promise<void> {
  const discordUserId = event.type === 'member.left' ? event.userId : event.member.userId;
  const found = await deps.database.db.execute<{ user_id: string }>(sql`
    select l.user_id from discord_links l
    where l.discord_user_id = ${discordUserId}
      and exists (select 1 from community_bindings b where b.guild_id = ${event.guildId})`);
  const userId = found.rows[0]?.user_id;
  if (userId) await queueConverge(deps, userId, { cause: 'member_event' });
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
