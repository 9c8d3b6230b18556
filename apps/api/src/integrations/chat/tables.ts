import {
  boolean,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../../db/columns.ts';

/**
 * A Discord snowflake: int64 in the database, so ids sort (and `after` pages) numerically as
 * Discord's do, and a decimal string in JavaScript, as in Discord's JSON.
 */
const snowflake = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (value) => String(value),
  toDriver: (value) => value,
});

/*
 * The Discord sandbox's own state (ADR 030): what Discord would hold for the accounts, servers and
 * grants the adapter talks to. Nothing outside integrations/chat reads these tables.
 */

export const sandboxDiscordUsers = pgTable('sandbox_discord_users', {
  id: snowflake('id').primaryKey(),
  /** Unique and lower-case, as Discord's usernames now are. */
  username: text('username').notNull().unique('sandbox_discord_users_username_key'),
  globalName: text('global_name'),
  bot: boolean('bot').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sandboxDiscordGuilds = pgTable('sandbox_discord_guilds', {
  id: snowflake('id').primaryKey(),
  name: text('name').notNull(),
  ownerId: snowflake('owner_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sandboxDiscordRoles = pgTable(
  'sandbox_discord_roles',
  {
    /** The guild's id for @everyone, as on Discord. */
    id: snowflake('id').primaryKey(),
    guildId: snowflake('guild_id')
      .notNull()
      .references(() => sandboxDiscordGuilds.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Higher sits above; @everyone is 0. */
    position: integer('position').notNull(),
    /** The permission bit set, as Discord's decimal string. */
    permissions: text('permissions').notNull().default('0'),
    managed: boolean('managed').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sandbox_discord_roles_guild_idx').on(t.guildId, t.position)],
);

export const sandboxDiscordChannels = pgTable(
  'sandbox_discord_channels',
  {
    id: snowflake('id').primaryKey(),
    guildId: snowflake('guild_id')
      .notNull()
      .references(() => sandboxDiscordGuilds.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 0 text, 2 voice, 4 category (Discord's channel types). */
    type: integer('type').notNull().default(0),
    position: integer('position').notNull().default(0),
    topic: text('topic'),
    /** Discord's permission overwrites, `[{ id, type, allow, deny }]` (type 0 role, 1 member). */
    overwrites: jsonb('overwrites')
      .$type<Array<{ id: string; type: 0 | 1; allow: string; deny: string }>>()
      .notNull()
      .default([]),
  },
  (t) => [index('sandbox_discord_channels_guild_idx').on(t.guildId, t.position)],
);

/** Messages posted to a channel (the bot's alert posts, ADR 059), with their embeds as sent. */
export const sandboxDiscordMessages = pgTable(
  'sandbox_discord_messages',
  {
    id: snowflake('id').primaryKey(),
    channelId: snowflake('channel_id')
      .notNull()
      .references(() => sandboxDiscordChannels.id, { onDelete: 'cascade' }),
    authorId: snowflake('author_id').notNull(),
    content: text('content').notNull(),
    /** Discord's embed objects, as the request carried them. */
    embeds: jsonb('embeds').$type<unknown[]>().notNull().default([]),
    /** The sender's nonce (`enforce_nonce` finds a repeat by it). */
    nonce: text('nonce'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_discord_messages_channel_idx').on(t.channelId, t.id),
    index('sandbox_discord_messages_nonce_idx')
      .on(t.channelId, t.authorId, t.nonce)
      .where(sql`${t.nonce} is not null`),
  ],
);

/** Keyed by (guild, user): a page of members `after` an id is one index range scan. */
export const sandboxDiscordMembers = pgTable(
  'sandbox_discord_members',
  {
    guildId: snowflake('guild_id')
      .notNull()
      .references(() => sandboxDiscordGuilds.id, { onDelete: 'cascade' }),
    userId: snowflake('user_id')
      .notNull()
      .references(() => sandboxDiscordUsers.id, { onDelete: 'cascade' }),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'sandbox_discord_members_pkey', columns: [t.guildId, t.userId] }),
    index('sandbox_discord_members_user_idx').on(t.userId),
  ],
);

export const sandboxDiscordMemberRoles = pgTable(
  'sandbox_discord_member_roles',
  {
    guildId: snowflake('guild_id').notNull(),
    userId: snowflake('user_id').notNull(),
    roleId: snowflake('role_id')
      .notNull()
      .references(() => sandboxDiscordRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({
      name: 'sandbox_discord_member_roles_pkey',
      columns: [t.guildId, t.userId, t.roleId],
    }),
    foreignKey({
      name: 'sandbox_discord_member_roles_member_fk',
      columns: [t.guildId, t.userId],
      foreignColumns: [sandboxDiscordMembers.guildId, sandboxDiscordMembers.userId],
    }).onDelete('cascade'),
    index('sandbox_discord_member_roles_role_idx').on(t.roleId),
  ],
);

export const sandboxDiscordInvites = pgTable('sandbox_discord_invites', {
  code: text('code').primaryKey(),
  guildId: snowflake('guild_id')
    .notNull()
    .references(() => sandboxDiscordGuilds.id, { onDelete: 'cascade' }),
  channelId: snowflake('channel_id').notNull(),
  inviterId: snowflake('inviter_id'),
  maxAge: integer('max_age').notNull(),
  /** 0 = unlimited. */
  maxUses: integer('max_uses').notNull(),
  uses: integer('uses').notNull().default(0),
  expiresAt: ts('expires_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Authorisation codes, kept by hash: single use and valid ten minutes, like Discord's. */
export const sandboxDiscordOauthCodes = pgTable('sandbox_discord_oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id').notNull(),
  userId: snowflake('user_id')
    .notNull()
    .references(() => sandboxDiscordUsers.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  scopes: text('scopes').array().notNull(),
  /** The server the bot was added to, for `scope=bot`. */
  guildId: snowflake('guild_id'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Access tokens a code was exchanged for, by hash. */
export const sandboxDiscordTokens = pgTable(
  'sandbox_discord_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    refreshHash: text('refresh_hash').notNull(),
    clientId: text('client_id').notNull(),
    userId: snowflake('user_id')
      .notNull()
      .references(() => sandboxDiscordUsers.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sandbox_discord_tokens_user_idx').on(t.userId, t.clientId)],
);
