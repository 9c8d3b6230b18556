import { createHash, randomInt } from 'node:crypto';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { SANDBOX_DISCORD } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { minutes, randomToken, sha256 } from '../../lib.ts';
import {
  alertChannelOverwrites,
  BOT_PERMISSIONS,
  channelPermissions,
  guildPermissions,
  highestPosition,
  type OverwriteFacts,
} from './permissions.ts';
import { SandboxTraffic, type SandboxRateLimits } from './sandbox-traffic.ts';
import {
  sandboxDiscordChannels,
  sandboxDiscordGuilds,
  sandboxDiscordInvites,
  sandboxDiscordMemberRoles,
  sandboxDiscordMembers,
  sandboxDiscordMessages,
  sandboxDiscordOauthCodes,
  sandboxDiscordRoles,
  sandboxDiscordTokens,
  sandboxDiscordUsers,
} from './tables.ts';

/*
 * The Discord sandbox's state and behaviour (ADR 030): accounts, servers, roles, members, invites
 * and OAuth2 grants in PostgreSQL, Discord's rules on them, and the changes its gateway dispatches.
 * The surfaces are sandbox-api.ts (the REST subset), sandbox-gateway.ts (the gateway) and
 * sandbox-pages.ts (what a person clicks).
 */

/** The sandbox bot's user id: the application's id, as on Discord. */
export const SANDBOX_BOT_ID = SANDBOX_DISCORD.clientId;
export const SANDBOX_BOT_USERNAME = 'tradeshelf';
/** The bot's role in each server it is in, and the app's name on the authorize page. */
export const SANDBOX_APP_NAME = 'Tradeshelf';
/** Discord's: codes live ten minutes, access tokens a week. */
export const CODE_TTL_MS = minutes(10);
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

export type SandboxUser = typeof sandboxDiscordUsers.$inferSelect;
export type SandboxGuild = typeof sandboxDiscordGuilds.$inferSelect;
export type SandboxRole = typeof sandboxDiscordRoles.$inferSelect;
export type SandboxChannel = typeof sandboxDiscordChannels.$inferSelect;
export type SandboxInvite = typeof sandboxDiscordInvites.$inferSelect;
export type SandboxMessage = typeof sandboxDiscordMessages.$inferSelect;

/** What a new Discord server's @everyone may do: see and write in channels, invite. */
const EVERYONE_PERMISSIONS =
  PermissionFlagsBits.CreateInstantInvite |
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.ReadMessageHistory;

/** Discord finds a repeated `nonce` (with `enforce_nonce`) within a few minutes. */
export const NONCE_WINDOW_MS = minutes(5);

export interface SandboxMember {
  userId: string;
  username: string;
  globalName: string | null;
  bot: boolean;
  joinedAt: Date;
  roleIds: string[];
}

const DISCORD_EPOCH = 1_420_070_400_000n;
let sequence = 0;
const worker = BigInt(randomInt(0, 1024));

/** A new id shaped like Discord's: milliseconds since 2015, a worker and a sequence number. */
export function newSnowflake(now = Date.now()): string {
  sequence = (sequence + 1) & 0xfff;
  return (((BigInt(now) - DISCORD_EPOCH) << 22n) | (worker << 12n) | BigInt(sequence)).toString();
}

/** A stable 19-digit id for a name, so seeding the same server twice gives the same ids. */
export function snowflakeFor(seed: string): string {
  const h = BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 15)}`);
  return ((1n << 60n) | h).toString();
}

/** Discord's username rules, simplified: 2–32 of a-z, 0-9, `_` and `.`. */
export function normalizeUsername(input: string): string | null {
  const name = input.trim().toLowerCase();
  return /^[a-z0-9_.]{2,32}$/.test(name) ? name : null;
}

/** Finds the user by name or creates them; never the bot. */
export async function ensureUser(db: Tx, username: string): Promise<SandboxUser | null> {
  const name = normalizeUsername(username);
  if (!name) return null;
  const [created] = await db
    .insert(sandboxDiscordUsers)
    .values({ id: newSnowflake(), username: name })
    .onConflictDoNothing()
    .returning();
  const user =
    created ??
    (await db.select().from(sandboxDiscordUsers).where(eq(sandboxDiscordUsers.username, name)))[0];
  return user && !user.bot ? user : null;
}

async function ensureBot(db: Tx): Promise<void> {
  await db
    .insert(sandboxDiscordUsers)
    .values({
      id: SANDBOX_BOT_ID,
      username: SANDBOX_BOT_USERNAME,
      globalName: SANDBOX_APP_NAME,
      bot: true,
    })
    .onConflictDoNothing();
}

/**
 * Puts the bot in the guild with the managed role "Tradeshelf" on top, holding `permissions`
 * (added to what the role has), as adding a bot to a server does.
 */
async function addBotTo(db: Tx, guildId: string, permissions: bigint): Promise<void> {
  await ensureBot(db);
  const roleId = botRoleIdOf(guildId);
  const [existing] = await db
    .select()
    .from(sandboxDiscordRoles)
    .where(eq(sandboxDiscordRoles.id, roleId));
  if (existing) {
    await db
      .update(sandboxDiscordRoles)
      .set({ permissions: (BigInt(existing.permissions) | permissions).toString() })
      .where(eq(sandboxDiscordRoles.id, roleId));
  } else {
    const [{ top }] = (await db
      .select({ top: sql<number>`coalesce(max(${sandboxDiscordRoles.position}), 0)::int` })
      .from(sandboxDiscordRoles)
      .where(eq(sandboxDiscordRoles.guildId, guildId))) as [{ top: number }];
    await db.insert(sandboxDiscordRoles).values({
      id: roleId,
      guildId,
      name: SANDBOX_APP_NAME,
      position: top + 1,
      permissions: permissions.toString(),
      managed: true,
    });
  }
  await db
    .insert(sandboxDiscordMembers)
    .values({ guildId, userId: SANDBOX_BOT_ID })
    .onConflictDoNothing();
  await db
    .insert(sandboxDiscordMemberRoles)
    .values({ guildId, userId: SANDBOX_BOT_ID, roleId })
    .onConflictDoNothing();
}

/** The bot's managed role in a guild: one per guild, its id derived from the guild's. */
export const botRoleIdOf = (guildId: string) => snowflakeFor(`bot-role:${guildId}`);

interface GuildShape {
  id: string;
  name: string;
  ownerId: string;
  /** Top first, as Discord lists them. */
  roles: Array<{ id: string; name: string }>;
  managedRoles?: Array<{ id: string; name: string }>;
  channelId: string;
}

/** The guild, @everyone, its roles (listed top first) above any managed ones, "general", the owner. */
async function insertGuild(db: Tx, g: GuildShape): Promise<void> {
  await db
    .insert(sandboxDiscordGuilds)
    .values({ id: g.id, name: g.name, ownerId: g.ownerId })
    .onConflictDoNothing();
  const managed = g.managedRoles ?? [];
  const rows = [
    // @everyone may see channels, write and create invites, as on a new Discord server.
    {
      id: g.id,
      name: '@everyone',
      position: 0,
      permissions: EVERYONE_PERMISSIONS.toString(),
      managed: false,
    },
    ...managed.map((r, i) => ({ ...r, position: i + 1, permissions: '0', managed: true })),
    ...g.roles.map((r, i) => ({
      ...r,
      position: managed.length + g.roles.length - i,
      permissions: '0',
      managed: false,
    })),
  ];
  await db
    .insert(sandboxDiscordRoles)
    .values(rows.map((r) => ({ ...r, guildId: g.id })))
    .onConflictDoNothing();
  await db
    .insert(sandboxDiscordChannels)
    .values({ id: g.channelId, guildId: g.id, name: 'general', type: 0, position: 0 })
    .onConflictDoNothing();
  await db
    .insert(sandboxDiscordMembers)
    .values({ guildId: g.id, userId: g.ownerId })
    .onConflictDoNothing();
}

export interface SeedGuildInput {
  name: string;
  /** Role names, top first; the bot's role "Tradeshelf" sits above them all. */
  roles: string[];
  /** Roles an integration owns (a booster role), below the others: nobody can assign them. */
  managedRoles?: string[];
  /** Default `sandbox_owner`. */
  ownerUsername?: string;
}

export interface SeededGuild {
  guildId: string;
  /** By role name, for `roles` and `managedRoles`. */
  roleIds: Record<string, string>;
  botRoleId: string;
  channelId: string;
  ownerId: string;
}

/**
 * A sandbox server with the bot already in it (role "Tradeshelf" on top, Manage Roles and Create
 * Invite), a text channel "general" and its owner. Idempotent by name: ids derive from it.
 */
export async function seedSandboxGuild(db: Db, input: SeedGuildInput): Promise<SeededGuild> {
  const guildId = snowflakeFor(`guild:${input.name}`);
  const role = (name: string) => ({ id: snowflakeFor(`role:${input.name}:${name}`), name });
  const roles = input.roles.map(role);
  const managedRoles = (input.managedRoles ?? []).map(role);
  const channelId = snowflakeFor(`channel:${input.name}:general`);
  return db.transaction(async (tx) => {
    const owner = await ensureUser(tx, input.ownerUsername ?? 'sandbox_owner');
    if (!owner)
      throw new Error(`Not a sandbox username: ${input.ownerUsername ?? 'sandbox_owner'}`);
    await insertGuild(tx, {
      id: guildId,
      name: input.name,
      ownerId: owner.id,
      roles,
      managedRoles,
      channelId,
    });
    await addBotTo(tx, guildId, BOT_PERMISSIONS);
    return {
      guildId,
      roleIds: Object.fromEntries([...roles, ...managedRoles].map((r) => [r.name, r.id])),
      botRoleId: botRoleIdOf(guildId),
      channelId,
      ownerId: owner.id,
    };
  });
}

/**
 * A text channel only `readerRoleIds` and the bot can see (an alert channel, ADR 059), as the
 * adapter's `createChannel` makes it. Idempotent by guild and name: the id derives from them.
 */
export async function seedSandboxAlertChannel(
  db: Db,
  input: { guildId: string; name: string; topic: string; readerRoleIds: string[] },
): Promise<{ channelId: string }> {
  const channelId = snowflakeFor(`channel:${input.guildId}:${input.name}`);
  await db
    .insert(sandboxDiscordChannels)
    .values({
      id: channelId,
      guildId: input.guildId,
      name: input.name,
      type: 0,
      position: 1,
      topic: input.topic,
      overwrites: alertChannelOverwrites(input.guildId, SANDBOX_BOT_ID, input.readerRoleIds),
    })
    .onConflictDoNothing();
  return { channelId };
}

/**
 * Adds `n` members (users `m<guild id>_<i>`, ids consecutive from a base derived from the guild) in
 * one statement each for users, members and roles: a 10 000-member server for benchmarks.
 * Idempotent: members already there are left alone.
 */
export async function seedSandboxMembers(
  db: Db,
  guildId: string,
  n: number,
  options: { roleIds?: string[] } = {},
): Promise<{ userIds: string[] }> {
  // Ids from a base with 20 free low bits: up to a million members per guild without overlap.
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000) throw new Error('n: 0 to 1 000 000');
  const base = BigInt(snowflakeFor(`members:${guildId}`)) & ~0xfffffn;
  const prefix = `m${guildId}_`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into sandbox_discord_users (id, username)
      select ${base.toString()}::bigint + g, ${prefix} || g from generate_series(1, ${n}::int) g
      on conflict do nothing`);
    await tx.execute(sql`
      insert into sandbox_discord_members (guild_id, user_id)
      select ${guildId}::bigint, ${base.toString()}::bigint + g from generate_series(1, ${n}::int) g
      on conflict do nothing`);
    for (const roleId of options.roleIds ?? []) {
      await tx.execute(sql`
        insert into sandbox_discord_member_roles (guild_id, user_id, role_id)
        select ${guildId}::bigint, ${base.toString()}::bigint + g, ${roleId}::bigint
        from generate_series(1, ${n}::int) g
        on conflict do nothing`);
    }
  });
  return { userIds: Array.from({ length: n }, (_, i) => (base + BigInt(i + 1)).toString()) };
}

/** What the bot may do in a guild: its permissions and its highest role's position. */
export interface BotStanding {
  permissions: bigint;
  top: number;
}

export type AcceptInvite = 'joined' | 'already' | 'invalid';

/**
 * A change in a server the bot is in, as the gateway dispatches it: GUILD_MEMBER_ADD, _UPDATE and
 * _REMOVE, and GUILD_CREATE when the bot is added to a server.
 */
export type SandboxChange =
  | { type: 'member.add' | 'member.update'; guildId: string; member: SandboxMember }
  | { type: 'member.remove'; guildId: string; user: SandboxUser }
  | { type: 'guild.join'; guildId: string };

export interface SandboxDiscordOptions {
  clientId: string;
  clientSecret: string;
  botToken: string;
  rateLimits?: Partial<SandboxRateLimits>;
}

/**
 * The Discord look-alike: state in PostgreSQL, traffic control in memory, changes to the listeners
 * (its gateway). Every change is made by a request this process serves (the API, the pages), and the
 * gateway's sockets are served by the same process, so a worker process hears them over the gateway.
 */
export class SandboxDiscord {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly botToken: string;
  readonly botId = SANDBOX_BOT_ID;
  /** The bot's account, as `users/@me` shows it (its row is written when it joins a server). */
  readonly botUser: SandboxUser = {
    id: SANDBOX_BOT_ID,
    username: SANDBOX_BOT_USERNAME,
    globalName: SANDBOX_APP_NAME,
    bot: true,
    createdAt: new Date(0),
  };
  readonly traffic: SandboxTraffic;
  private readonly listeners = new Set<(change: SandboxChange) => void>();

  constructor(
    private readonly db: Db,
    options: SandboxDiscordOptions,
  ) {
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.botToken = options.botToken;
    this.traffic = new SandboxTraffic(options.rateLimits);
  }

  /* Changes, for the gateway */

  onChange(listener: (change: SandboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners, when the bot is in the server (Discord dispatches nothing otherwise). */
  private async emit(change: SandboxChange): Promise<void> {
    if (change.type !== 'guild.join' && !(await this.member(change.guildId, this.botId))) return;
    for (const listener of this.listeners) {
      // A listener's failure is its own: the change happened, and other listeners still hear it.
      try {
        listener(change);
      } catch {
        /* ignored, as above */
      }
    }
  }

  private async emitMember(type: 'member.add' | 'member.update', guildId: string, userId: string) {
    const member = await this.member(guildId, userId);
    if (member) await this.emit({ type, guildId, member });
  }

  /* Users */

  ensureUser(username: string): Promise<SandboxUser | null> {
    return ensureUser(this.db, username);
  }

  /** The row of one of its tables with this id, or null. */
  private async byId<T extends PgTable & { id: PgColumn }>(
    table: T,
    id: string,
  ): Promise<T['$inferSelect'] | null> {
    const [row] = await this.db
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id));
    return (row as T['$inferSelect'] | undefined) ?? null;
  }

  async user(id: string): Promise<SandboxUser | null> {
    if (!/^\d{1,19}$/.test(id)) return null;
    return this.byId(sandboxDiscordUsers, id);
  }

  /* Guilds */

  async guild(id: string): Promise<SandboxGuild | null> {
    return this.byId(sandboxDiscordGuilds, id);
  }

  async guilds(): Promise<Array<SandboxGuild & { members: number; botIn: boolean }>> {
    const rows = await this.db.execute(sql`
      select g.id::text as id, g.name, g.owner_id::text as "ownerId", g.created_at as "createdAt",
        (select count(*)::int from sandbox_discord_members m where m.guild_id = g.id) as members,
        exists(select 1 from sandbox_discord_members m
          where m.guild_id = g.id and m.user_id = ${this.botId}::bigint) as "botIn"
      from sandbox_discord_guilds g order by g.created_at desc, g.id limit 200`);
    return rows.rows as Array<SandboxGuild & { members: number; botIn: boolean }>;
  }

  /** The servers the bot is in, for READY and GUILD_CREATE. */
  async botGuildIds(): Promise<string[]> {
    const rows = await this.db
      .select({ id: sandboxDiscordMembers.guildId })
      .from(sandboxDiscordMembers)
      .where(eq(sandboxDiscordMembers.userId, this.botId))
      .orderBy(asc(sandboxDiscordMembers.guildId));
    return rows.map((r) => r.id);
  }

  async memberCount(guildId: string): Promise<number> {
    const rows = await this.db.execute<{ n: number }>(
      sql`select count(*)::int as n from sandbox_discord_members where guild_id = ${guildId}::bigint`,
    );
    return rows.rows[0]?.n ?? 0;
  }

  /** Servers this user owns: where they may add the bot. */
  async ownedGuilds(userId: string): Promise<SandboxGuild[]> {
    return this.db
      .select()
      .from(sandboxDiscordGuilds)
      .where(eq(sandboxDiscordGuilds.ownerId, userId))
      .orderBy(asc(sandboxDiscordGuilds.name));
  }

  /** A new server owned by `ownerId`, with roles (top first) and "general"; no bot until added. */
  async createGuild(input: { name: string; ownerId: string; roles: string[] }): Promise<string> {
    const id = newSnowflake();
    await this.db.transaction((tx) =>
      insertGuild(tx, {
        id,
        name: input.name,
        ownerId: input.ownerId,
        roles: input.roles.map((name) => ({ id: newSnowflake(), name })),
        channelId: newSnowflake(),
      }),
    );
    return id;
  }

  /** Adding the bot (the install page): GUILD_CREATE, as the bot's own join is no member event. */
  async addBot(guildId: string, permissions: bigint): Promise<void> {
    await this.db.transaction((tx) => addBotTo(tx, guildId, permissions));
    await this.emit({ type: 'guild.join', guildId });
  }

  /** A guild's rows of one of its positioned tables (roles, channels), by position, then id. */
  private async inGuild<
    T extends PgTable & { guildId: PgColumn; position: PgColumn; id: PgColumn },
  >(
    table: T,
    guildId: string,
    position: typeof asc | typeof desc,
  ): Promise<Array<T['$inferSelect']>> {
    const rows = await this.db
      .select()
      .from(table as PgTable)
      .where(eq(table.guildId, guildId))
      .orderBy(position(table.position), asc(table.id));
    return rows as Array<T['$inferSelect']>;
  }

  /** Highest first, as Discord lists them. */
  roles(guildId: string): Promise<SandboxRole[]> {
    return this.inGuild(sandboxDiscordRoles, guildId, desc);
  }

  channels(guildId: string): Promise<SandboxChannel[]> {
    return this.inGuild(sandboxDiscordChannels, guildId, asc);
  }

  async channel(id: string): Promise<SandboxChannel | null> {
    return this.byId(sandboxDiscordChannels, id);
  }

  /** A new channel with its overwrites (type 0 text), placed last. */
  async createChannel(input: {
    guildId: string;
    name: string;
    topic: string | null;
    overwrites: OverwriteFacts[];
  }): Promise<SandboxChannel> {
    const [row] = await this.db
      .insert(sandboxDiscordChannels)
      .values({
        id: newSnowflake(),
        guildId: input.guildId,
        name: input.name,
        type: 0,
        topic: input.topic,
        overwrites: input.overwrites,
        position: sql`(select coalesce(max(position), -1) + 1 from sandbox_discord_channels
          where guild_id = ${input.guildId}::bigint)`,
      })
      .returning();
    return row!;
  }

  /** The member's permissions in the channel (null when they are not in its server). */
  async permissionsIn(channel: SandboxChannel, userId: string): Promise<bigint | null> {
    const [guild, roles, member] = await Promise.all([
      this.guild(channel.guildId),
      this.roles(channel.guildId),
      this.member(channel.guildId, userId),
    ]);
    if (!guild || !member) return null;
    return channelPermissions(guild, roles, member, channel.overwrites);
  }

  /**
   * Posts a message. With `enforceNonce`, a message the same author sent to the channel with the
   * same nonce within the window is answered instead (`created` false), as Discord does.
   */
  async postMessage(input: {
    channelId: string;
    authorId: string;
    content: string;
    embeds: unknown[];
    nonce: string | null;
    enforceNonce: boolean;
  }): Promise<{ message: SandboxMessage; created: boolean }> {
    return this.db.transaction(async (tx) => {
      const nonce = input.nonce;
      if (nonce !== null && input.enforceNonce) {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`sandbox-nonce:${input.channelId}:${nonce}`}))`,
        );
        const [seen] = await tx
          .select()
          .from(sandboxDiscordMessages)
          .where(
            and(
              eq(sandboxDiscordMessages.channelId, input.channelId),
              eq(sandboxDiscordMessages.authorId, input.authorId),
              eq(sandboxDiscordMessages.nonce, nonce),
              sql`${sandboxDiscordMessages.createdAt} > now() - make_interval(secs => ${NONCE_WINDOW_MS / 1000})`,
            ),
          )
          .limit(1);
        if (seen) return { message: seen, created: false };
      }
      const [message] = await tx
        .insert(sandboxDiscordMessages)
        .values({
          id: newSnowflake(),
          channelId: input.channelId,
          authorId: input.authorId,
          content: input.content,
          embeds: input.embeds,
          nonce,
        })
        .returning();
      return { message: message!, created: true };
    });
  }

  /** The channel's messages, newest first. */
  async messages(channelId: string, limit = 50): Promise<SandboxMessage[]> {
    return this.db
      .select()
      .from(sandboxDiscordMessages)
      .where(eq(sandboxDiscordMessages.channelId, channelId))
      .orderBy(desc(sandboxDiscordMessages.id))
      .limit(limit);
  }

  /** The page's switch: the bot's own overwrite in a channel allows or denies Send Messages. */
  async setBotCanPost(channelId: string, on: boolean): Promise<void> {
    const channel = await this.channel(channelId);
    if (!channel) return;
    const send = PermissionFlagsBits.SendMessages;
    const own = channel.overwrites.find((o) => o.type === 1 && o.id === this.botId) ?? {
      id: this.botId,
      type: 1 as const,
      allow: '0',
      deny: '0',
    };
    const next = {
      ...own,
      allow: (on ? BigInt(own.allow) | send : BigInt(own.allow) & ~send).toString(),
      deny: (on ? BigInt(own.deny) & ~send : BigInt(own.deny) | send).toString(),
    };
    await this.db
      .update(sandboxDiscordChannels)
      .set({ overwrites: [...channel.overwrites.filter((o) => o !== own), next] })
      .where(eq(sandboxDiscordChannels.id, channelId));
  }

  /** The bot's permissions and highest position, or null when it is not in the guild. */
  async botStanding(guild: SandboxGuild): Promise<BotStanding | null> {
    const [roles, bot] = await Promise.all([
      this.roles(guild.id),
      this.member(guild.id, this.botId),
    ]);
    if (!bot) return null;
    return {
      permissions: guildPermissions(guild, roles, bot),
      top: highestPosition(roles, bot.roleIds),
    };
  }

  /** The page's switch for the bot role's Manage Roles permission. */
  async setBotManageRoles(guildId: string, on: boolean): Promise<void> {
    const roleId = botRoleIdOf(guildId);
    const flag = PermissionFlagsBits.ManageRoles.toString();
    await this.db
      .update(sandboxDiscordRoles)
      .set({
        permissions: on
          ? sql`(${sandboxDiscordRoles.permissions}::bigint | ${flag}::bigint)::text`
          : sql`(${sandboxDiscordRoles.permissions}::bigint & ~${flag}::bigint)::text`,
      })
      .where(eq(sandboxDiscordRoles.id, roleId));
  }

  /**
   * Moves the bot's role just below `roleId` (to reproduce "the role sits above the bot's"), or
   * back to the top when null. Positions stay distinct, 1…n above @everyone.
   */
  async moveBotRole(guildId: string, belowRoleId: string | null): Promise<void> {
    const botRoleId = botRoleIdOf(guildId);
    await this.db.transaction(async (tx) => {
      const roles = (
        await tx
          .select()
          .from(sandboxDiscordRoles)
          .where(eq(sandboxDiscordRoles.guildId, guildId))
          .orderBy(asc(sandboxDiscordRoles.position), asc(sandboxDiscordRoles.id))
      ).filter((r) => r.id !== guildId);
      const bot = roles.find((r) => r.id === botRoleId);
      if (!bot) return;
      const others = roles.filter((r) => r.id !== botRoleId);
      const at = belowRoleId ? others.findIndex((r) => r.id === belowRoleId) : -1;
      const order = at < 0 ? [...others, bot] : [...others.slice(0, at), bot, ...others.slice(at)];
      for (const [i, role] of order.entries()) {
        if (role.position !== i + 1)
          await tx
            .update(sandboxDiscordRoles)
            .set({ position: i + 1 })
            .where(eq(sandboxDiscordRoles.id, role.id));
      }
    });
  }

  /* Members */

  async member(guildId: string, userId: string): Promise<SandboxMember | null> {
    if (!/^\d{1,19}$/.test(userId)) return null;
    const rows = await this.db.execute(sql`
      select m.user_id::text as "userId", u.username, u.global_name as "globalName", u.bot,
        m.joined_at as "joinedAt",
        array(select r.role_id::text from sandbox_discord_member_roles r
          where r.guild_id = m.guild_id and r.user_id = m.user_id order by r.role_id) as "roleIds"
      from sandbox_discord_members m join sandbox_discord_users u on u.id = m.user_id
      where m.guild_id = ${guildId}::bigint and m.user_id = ${userId}::bigint`);
    return (rows.rows[0] as SandboxMember | undefined) ?? null;
  }

  /** Members ordered by id after `after`: one range scan of the (guild, user) key. */
  async listMembers(guildId: string, after: string, limit: number): Promise<SandboxMember[]> {
    const rows = await this.db.execute(sql`
      select m.user_id::text as "userId", u.username, u.global_name as "globalName", u.bot,
        m.joined_at as "joinedAt",
        array(select r.role_id::text from sandbox_discord_member_roles r
          where r.guild_id = m.guild_id and r.user_id = m.user_id order by r.role_id) as "roleIds"
      from sandbox_discord_members m join sandbox_discord_users u on u.id = m.user_id
      where m.guild_id = ${guildId}::bigint and m.user_id > ${after}::bigint
      order by m.user_id limit ${limit}::int`);
    return rows.rows as unknown as SandboxMember[];
  }

  /** Adds the user with `roleIds`; `already` (roles untouched) when they are in. */
  async addMember(
    guildId: string,
    userId: string,
    roleIds: string[],
  ): Promise<'added' | 'already'> {
    const added = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(sandboxDiscordMembers)
        .values({ guildId, userId })
        .onConflictDoNothing()
        .returning();
      if (!row) return false;
      if (roleIds.length)
        await tx
          .insert(sandboxDiscordMemberRoles)
          .values(roleIds.map((roleId) => ({ guildId, userId, roleId })))
          .onConflictDoNothing();
      return true;
    });
    if (!added) return 'already';
    await this.emitMember('member.add', guildId, userId);
    return 'added';
  }

  /** Gives the role; true when it changed anything. */
  async addRole(guildId: string, userId: string, roleId: string): Promise<boolean> {
    const rows = await this.db
      .insert(sandboxDiscordMemberRoles)
      .values({ guildId, userId, roleId })
      .onConflictDoNothing()
      .returning();
    if (rows.length) await this.emitMember('member.update', guildId, userId);
    return rows.length > 0;
  }

  async removeRole(guildId: string, userId: string, roleId: string): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxDiscordMemberRoles)
      .where(
        and(
          eq(sandboxDiscordMemberRoles.guildId, guildId),
          eq(sandboxDiscordMemberRoles.userId, userId),
          eq(sandboxDiscordMemberRoles.roleId, roleId),
        ),
      )
      .returning();
    if (rows.length) await this.emitMember('member.update', guildId, userId);
    return rows.length > 0;
  }

  async kick(guildId: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxDiscordMembers)
      .where(
        and(eq(sandboxDiscordMembers.guildId, guildId), eq(sandboxDiscordMembers.userId, userId)),
      )
      .returning();
    const user = rows.length ? await this.user(userId) : null;
    if (user) await this.emit({ type: 'member.remove', guildId, user });
    return rows.length > 0;
  }

  /* Invites */

  async createInvite(input: {
    guildId: string;
    channelId: string;
    inviterId: string | null;
    maxAge: number;
    maxUses: number;
  }): Promise<SandboxInvite> {
    const [invite] = await this.db
      .insert(sandboxDiscordInvites)
      .values({
        code: randomToken(6).replace(/[-_]/g, 'x').slice(0, 8),
        ...input,
        expiresAt: input.maxAge ? new Date(Date.now() + input.maxAge * 1000) : null,
      })
      .returning();
    return invite!;
  }

  async invite(code: string): Promise<(SandboxInvite & { guildName: string }) | null> {
    const [row] = await this.db
      .select({ invite: sandboxDiscordInvites, guildName: sandboxDiscordGuilds.name })
      .from(sandboxDiscordInvites)
      .innerJoin(sandboxDiscordGuilds, eq(sandboxDiscordGuilds.id, sandboxDiscordInvites.guildId))
      .where(eq(sandboxDiscordInvites.code, code));
    return row ? { ...row.invite, guildName: row.guildName } : null;
  }

  /** Joins by invite: uses one use unless already a member; refuses used-up and expired invites. */
  async acceptInvite(code: string, userId: string): Promise<AcceptInvite> {
    const outcome = await this.db.transaction(
      async (tx): Promise<[AcceptInvite, string | null]> => {
        const [invite] = await tx
          .select()
          .from(sandboxDiscordInvites)
          .where(eq(sandboxDiscordInvites.code, code))
          .for('update');
        if (!invite || (invite.expiresAt && invite.expiresAt <= new Date()))
          return ['invalid', null];
        const [inAlready] = await tx
          .select()
          .from(sandboxDiscordMembers)
          .where(
            and(
              eq(sandboxDiscordMembers.guildId, invite.guildId),
              eq(sandboxDiscordMembers.userId, userId),
            ),
          );
        if (inAlready) return ['already', invite.guildId];
        if (invite.maxUses && invite.uses >= invite.maxUses) return ['invalid', null];
        await tx
          .update(sandboxDiscordInvites)
          .set({ uses: invite.uses + 1 })
          .where(eq(sandboxDiscordInvites.code, code));
        await tx.insert(sandboxDiscordMembers).values({ guildId: invite.guildId, userId });
        return ['joined', invite.guildId];
      },
    );
    const [result, guildId] = outcome;
    if (result === 'joined') await this.emitMember('member.add', guildId!, userId);
    return result;
  }

  /* OAuth2 */

  async createCode(input: {
    userId: string;
    redirectUri: string;
    scopes: string[];
    guildId: string | null;
  }): Promise<string> {
    const code = randomToken(24);
    await this.db.insert(sandboxDiscordOauthCodes).values({
      codeHash: sha256(code),
      clientId: this.clientId,
      userId: input.userId,
      redirectUri: input.redirectUri,
      scopes: input.scopes,
      guildId: input.guildId,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    return code;
  }

  /** Redeems a code once: null when unknown, used, expired, or for another redirect URI. */
  async redeemCode(
    code: string,
    redirectUri: string,
  ): Promise<{ userId: string; scopes: string[]; guildId: string | null } | null> {
    const [row] = await this.db
      .update(sandboxDiscordOauthCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(sandboxDiscordOauthCodes.codeHash, sha256(code)),
          sql`${sandboxDiscordOauthCodes.usedAt} is null`,
        ),
      )
      .returning();
    if (!row || row.expiresAt <= new Date() || row.redirectUri !== redirectUri) return null;
    return { userId: row.userId, scopes: row.scopes, guildId: row.guildId };
  }

  async issueToken(userId: string, scopes: string[]) {
    const accessToken = randomToken(24);
    const refreshToken = randomToken(24);
    await this.db.insert(sandboxDiscordTokens).values({
      tokenHash: sha256(accessToken),
      refreshHash: sha256(refreshToken),
      clientId: this.clientId,
      userId,
      scopes,
      expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
    });
    return { accessToken, refreshToken };
  }

  /**
   * The refresh-token grant: the grant's tokens are replaced by new ones with the same scopes, as on
   * Discord (the old refresh token is spent). Null when unknown or already used.
   */
  async refreshToken(
    refreshToken: string,
  ): Promise<{ accessToken: string; refreshToken: string; scopes: string[] } | null> {
    const [old] = await this.db
      .delete(sandboxDiscordTokens)
      .where(
        and(
          eq(sandboxDiscordTokens.refreshHash, sha256(refreshToken)),
          eq(sandboxDiscordTokens.clientId, this.clientId),
        ),
      )
      .returning();
    if (!old) return null;
    return { ...(await this.issueToken(old.userId, old.scopes)), scopes: old.scopes };
  }

  /** The user and scopes of a live access token. */
  async tokenOwner(token: string): Promise<{ user: SandboxUser; scopes: string[] } | null> {
    const [row] = await this.db
      .select({ user: sandboxDiscordUsers, scopes: sandboxDiscordTokens.scopes })
      .from(sandboxDiscordTokens)
      .innerJoin(sandboxDiscordUsers, eq(sandboxDiscordUsers.id, sandboxDiscordTokens.userId))
      .where(
        and(
          eq(sandboxDiscordTokens.tokenHash, sha256(token)),
          sql`${sandboxDiscordTokens.expiresAt} > now()`,
        ),
      );
    return row ?? null;
  }

  /** Whether the user granted this app every one of `scopes` before (for `prompt=none`). */
  async granted(userId: string, scopes: string[]): Promise<boolean> {
    const rows = await this.db.execute(sql`
      select 1 from sandbox_discord_tokens
      where user_id = ${userId}::bigint and client_id = ${this.clientId}
        and scopes @> ${`{${scopes.join(',')}}`}::text[] and expires_at > now() limit 1`);
    return rows.rows.length > 0;
  }
}
