// Use cases (vendor): add the bot to a server, read its roles, bind a community product to roles.
import { discordMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { ChatError } from '../../integrations/chat/port.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries, vendorIdOfUser } from '../catalog/index.ts';
import { queueConverge } from './converge-queue.ts';
import { issueState, spendState } from './discord-link.ts';

/**
 * Discord sends the browser back to the workspace's Discord page, which holds the session and
 * completes the install through `GET /api/v1/vendor/discord/installed` (a bearer call).
 */
export const installCallback = (origin: string) => `${origin}/vendor/delivery/discord`;

export async function vendorOf(deps: AppDeps, userId: string): Promise<string> {
  const vendorId = await vendorIdOfUser(deps.database.db, userId);
  if (!vendorId) throw new AppError('forbidden', m.vendorsOnly);
  return vendorId;
}

const down = (err: unknown): never => {
  if (err instanceof ChatError && err.kind === 'not_found')
    throw new AppError('not_found', m.serverUnknown);
  if (err instanceof ChatError) throw new AppError('service_unavailable', m.discordDown);
  throw err;
};

export async function installUrl(deps: AppDeps, userId: string, origin: string) {
  await vendorOf(deps, userId);
  const { state, expiresAt } = await issueState(deps, userId, 'install', null);
  return {
    url: deps.chat.installUrl({ state, redirectUri: installCallback(origin) }),
    expiresAt: expiresAt.toISOString(),
  };
}

/** Discord's return from the install page: records the server as the vendor's. */
export async function installed(deps: AppDeps, userId: string, state: string, guildId: string) {
  const vendorId = await vendorOf(deps, userId);
  await spendState(deps, userId, 'install', state);
  const guild = await deps.chat.guild(guildId).catch(down);
  await deps.database.db
    .execute(sql`insert into vendor_discord_servers (vendor_id, guild_id, name, icon_url)
    values (${vendorId}, ${guild.id}, ${guild.name}, ${guild.iconUrl})
    on conflict (vendor_id, guild_id) do update set name = excluded.name, icon_url = excluded.icon_url`);
  return guild;
}

export async function serverOf(deps: AppDeps, vendorId: string, guildId: string) {
  const found = await deps.database.db.execute<{ guild_id: string }>(sql`select guild_id
    from vendor_discord_servers where vendor_id = ${vendorId} and guild_id = ${guildId}`);
  if (!found.rows[0]) throw new AppError('not_found', m.serverUnknown);
}

export async function serverRoles(deps: AppDeps, userId: string, guildId: string) {
  const vendorId = await vendorOf(deps, userId);
  await serverOf(deps, vendorId, guildId);
  const guild = await deps.chat.guild(guildId).catch(down);
  const roles = (await deps.chat.roles(guildId).catch(down)).filter((r) => r.id !== guildId);
  const report = await deps.chat
    .roleReport(
      guildId,
      roles.map((r) => r.id),
    )
    .catch(down);
  // A server-wide problem (no Manage Roles) stops every role; it is named on each.
  const general = report.server.join(' ') || null;
  return {
    server: guild,
    roles: roles
      .sort((a, b) => b.position - a.position)
      .map((r) => ({ id: r.id, name: r.name, problem: general ?? report.byRole[r.id] ?? null })),
  };
}

/**
 * Binds a community product to a server's roles. Roles the bot cannot assign are refused with the
 * fix in words (422); on success, every buyer of the product is converged to the new roles.
 */
export async function bind(
  deps: AppDeps,
  userId: string,
  input: { productId: string; guildId: string; roleIds: string[] },
) {
  const vendorId = await vendorOf(deps, userId);
  const product = (
    await itemSummaries(deps.database.db, [{ type: 'product', id: input.productId }])
  ).get(`product:${input.productId}`);
  if (!product || product.vendorId !== vendorId || product.kind !== 'community')
    throw new AppError('not_found', m.productNotYours);
  await serverOf(deps, vendorId, input.guildId);
  const guild = await deps.chat.guild(input.guildId).catch(down);
  const all = await deps.chat.roles(input.guildId).catch(down);
  const roles = input.roleIds.map((id) => all.find((r) => r.id === id));
  if (roles.some((r) => !r))
    throw new AppError(
      'business_rule',
      'One of the roles no longer exists in the server. Reload the roles.',
    );
  const problems = await deps.chat.roleProblems(input.guildId, input.roleIds).catch(down);
  if (problems.length) throw new AppError('business_rule', problems.join(' '));
  const chosen = roles.map((r) => ({ id: r!.id, name: r!.name }));
  const buyers = await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`insert into community_bindings (product_id, vendor_id, guild_id, guild_name,
        guild_icon_url, roles)
      values (${input.productId}, ${vendorId}, ${guild.id}, ${guild.name}, ${guild.iconUrl},
        ${JSON.stringify(chosen)}::jsonb)
      on conflict (product_id) do update set guild_id = excluded.guild_id,
        guild_name = excluded.guild_name, guild_icon_url = excluded.guild_icon_url,
        roles = excluded.roles, updated_at = now()`);
    return (
      await tx.execute<{ user_id: string }>(sql`select distinct user_id from entitlements
        where product_id = ${input.productId} and kind = 'discord_role'`)
    ).rows;
  });
  for (const b of buyers) await queueConverge(deps, b.user_id, { cause: 'retry' });
  return { productId: input.productId, server: guild, roles: chosen };
}
