// Use case: compare every bound server with the entitlements and repair both ways.
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { managedRoles, record } from './converge.ts';

const PAGE = 1000;

export interface ReconcileResult {
  guilds: number;
  members: number;
  added: number;
  removed: number;
}

/**
 * Pages through each bound server's members (1000 a request) and, for each member holding a role we
 * manage or linked to a buyer, gives back a managed role they should hold (removed by hand) and takes
 * a managed role they hold without a live entitlement. Requests stay within Discord's limits: the
 * REST client queues on its buckets and the 50/s global limit.
 */
export async function reconcileAll(deps: AppDeps): Promise<ReconcileResult> {
  const db = deps.database.db;
  const guilds = (
    await db.execute<{ guild_id: string }>(
      sql`select distinct guild_id from community_bindings order by guild_id`,
    )
  ).rows.map((r) => r.guild_id);
  const managedOf = await managedRoles(db, guilds);
  const result: ReconcileResult = { guilds: guilds.length, members: 0, added: 0, removed: 0 };
  for (const guildId of guilds) {
    const managed = managedOf.get(guildId) ?? [];
    const managedIds = new Set(managed.map((r) => r.id));
    let after: string | null = null;
    for (;;) {
      const page = await deps.chat.listMembers(guildId, { after, limit: PAGE });
      if (!page.length) break;
      after = page[page.length - 1]!.userId;
      result.members += page.length;
      // What each linked member of this page should hold here, in one query.
      const wanted = await db.execute<{
        discord_user_id: string;
        entitlement_id: string;
        role_ids: string[];
      }>(sql`
        select l.discord_user_id, e.id as entitlement_id,
          array(select jsonb_array_elements(b.roles)->>'id') as role_ids
        from discord_links l
          join entitlements e on e.user_id = l.user_id and e.kind = 'discord_role'
            and e.status = 'active' and (e.ends_at is null or e.ends_at > now())
          join community_bindings b on b.product_id = e.product_id and b.guild_id = ${guildId}
        where l.discord_user_id = any(${sql.param(page.map((p) => p.userId))}::text[])`);
      const want = new Map<string, { roles: Set<string>; entitlements: string[] }>();
      for (const w of wanted.rows) {
        const entry = want.get(w.discord_user_id) ?? { roles: new Set(), entitlements: [] };
        for (const id of w.role_ids) entry.roles.add(id);
        entry.entitlements.push(w.entitlement_id);
        want.set(w.discord_user_id, entry);
      }
      for (const member of page) {
        const should = want.get(member.userId);
        const held = new Set(member.roleIds);
        const add = [...(should?.roles ?? [])].filter((id) => !held.has(id));
        const remove = member.roleIds.filter((id) => managedIds.has(id) && !should?.roles.has(id));
        const repair = (why: string) => `Tradeshelf: repair (${why})`;
        for (const id of add)
          await deps.chat.addRole(guildId, member.userId, id, repair('role was missing'));
        for (const id of remove)
          await deps.chat.removeRole(guildId, member.userId, id, repair('no live access'));
        result.added += add.length;
        result.removed += remove.length;
        if (add.length && should) {
          const names = managed.filter((r) => add.includes(r.id)).map((r) => `“${r.name}”`);
          for (const e of should.entitlements)
            await record(
              db,
              e,
              'repaired',
              `${names.join(', ')} given back (removed outside Tradeshelf).`,
            );
        }
      }
      if (page.length < PAGE) break;
    }
  }
  return result;
}
