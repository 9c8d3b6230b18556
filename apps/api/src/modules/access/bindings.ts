// Use cases (vendor): add the bot to a server, read its roles, bind a community product to roles.
import { discordMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { ChatError } from '../../integrations/chat/port.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries } from '../catalog/index.ts';
import { queueConverge } from './converge-queue.ts';
import { addRoleEntitlements } from './entitlements.ts';
import { issueState, spendState } from './discord-link.ts';

/**
 * Discord sends the browser back to the workspace's Discord page, which holds the session and
 * completes the install through `GET /api/v1/vendor/discord/installed` (a bearer call).
 */
export const installCallback = (origin: string) => `${origin}/vendor/delivery/discord`;

const down = (err: unknown): never => {
  if (err instanceof ChatError && err.kind === 'not_found')
    throw new AppError('not_found', m.serverUnknown);
  if (err instanceof ChatError) throw new AppError('service_unavailable', m.discordDown);
  throw err;
};

export async function installUrl(deps: AppDeps, userId: string, origin: string) {
  const { state, expiresAt } = await issueState(deps, userId, 'install', null);
  return {
    url: deps.chat.installUrl({ state, redirectUri: installCallback(origin) }),
    expiresAt: expiresAt.toISOString(),
  };
}

/** The exchange's failures: a bad code is the vendor's to retry from the start; an outage is a 503. */
const installRefused = (err: unknown): never => {
  if (err instanceof ChatError && err.kind === 'invalid_grant')
    throw new AppError('bad_request', m.installCodeInvalid);
  if (err instanceof ChatError) throw new AppError('service_unavailable', m.discordDown);
  throw err;
};

/**
 * Discord's return from the install page: spends the state, exchanges the code and records the
 * server Discord's token answer names (the one the person, who must be able to manage it, added the
 * bot to). The query's `guild_id` is never read: it is the address bar's, and anyone can type one.
 * A server is one vendor's: another vendor's is refused (409) and nothing is recorded.
 */
export async function installed(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  input: { state: string; code: string },
  origin: string,
) {
  await spendState(deps, userId, 'install', input.state);
  const guild = await deps.chat
    .exchangeInstall(input.code, installCallback(origin))
    .catch(installRefused);
  // The unique guild index decides between two vendors at once; a repeat by the holder refreshes.
  const kept = await deps.database.db.execute<{ vendor_id: string }>(sql`insert into
      vendor_discord_servers (vendor_id, guild_id, name, icon_url)
    values (${vendorId}, ${guild.id}, ${guild.name}, ${guild.iconUrl})
    on conflict (guild_id) do update set name = excluded.name, icon_url = excluded.icon_url
      where vendor_discord_servers.vendor_id = excluded.vendor_id
    returning vendor_id`);
  if (!kept.rows[0]) throw new AppError('conflict', m.serverTaken);
  return guild;
}

/** 404 unless the server is this vendor's (a server has one holder: its guild id is unique). */
export async function serverOf(deps: AppDeps, vendorId: string, guildId: string) {
  const holder = await deps.database.db.execute<{ vendor_id: string }>(sql`select vendor_id
    from vendor_discord_servers where guild_id = ${guildId}`);
  if (holder.rows[0]?.vendor_id !== vendorId) throw new AppError('not_found', m.serverUnknown);
}

/** The server as the bot sees it now: 404 when the bot was removed from it (or it is gone). */
const botGuild = (deps: AppDeps, guildId: string) =>
  deps.chat.guild(guildId).catch((err: unknown) => {
    // Discord answers Missing Access (403) for a server the bot is not in.
    if (err instanceof ChatError && (err.kind === 'forbidden' || err.kind === 'not_found'))
      throw new AppError('not_found', m.serverUnknown);
    return down(err);
  });

export async function serverRoles(deps: AppDeps, vendorId: string, guildId: string) {
  await serverOf(deps, vendorId, guildId);
  const guild = await botGuild(deps, guildId);
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
    // What alert channels need beyond roles (ADR 059): said, never a reason to refuse a binding.
    notes: report.channels,
    roles: roles
      .sort((a, b) => b.position - a.position)
      .map((r) => ({ id: r.id, name: r.name, problem: general ?? report.byRole[r.id] ?? null })),
  };
}

/**
 * Binds a community product (or an alert product, whose feed's Discord channel its roles read, ADR
 * 059) to a server's roles. Roles the bot cannot assign are refused with the fix in words (422); on
 * success, every buyer of the product is converged to the new roles.
 */
export async function bind(
  deps: AppDeps,
  vendorId: string,
  input: { productId: string; guildId: string; roleIds: string[] },
) {
  const product = (
    await itemSummaries(deps.database.db, [{ type: 'product', id: input.productId }])
  ).get(`product:${input.productId}`);
  if (
    !product ||
    product.vendorId !== vendorId ||
    (product.kind !== 'community' && product.kind !== 'alert')
  )
    throw new AppError('not_found', m.productNotYours);
  await serverOf(deps, vendorId, input.guildId);
  const guild = await botGuild(deps, input.guildId);
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
    // An alert product's holders bought it before it gave a role: they get it now.
    if (product.kind === 'alert') await addRoleEntitlements(tx, input.productId);
    return (
      await tx.execute<{ user_id: string }>(sql`select distinct user_id from entitlements
        where product_id = ${input.productId} and kind = 'discord_role'`)
    ).rows;
  });
  for (const b of buyers) await queueConverge(deps, b.user_id, { cause: 'retry' });
  return { productId: input.productId, server: guild, roles: chosen };
}
