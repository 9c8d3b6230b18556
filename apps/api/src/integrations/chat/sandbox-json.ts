import {
  ChannelType,
  Locale,
  MessageType,
  OverwriteType,
  type APIEmbed,
  type APIMessage,
  type APITextChannel,
  type ChannelFlags,
  type MessageFlags,
  type APIGuild,
  type APIGuildMember,
  type APIRole,
  type APIUser,
  type GuildMemberFlags,
  type GuildSystemChannelFlags,
  type RoleFlags,
  type UserFlags,
} from 'discord-api-types/v10';
import {
  SANDBOX_APP_NAME,
  type SandboxChannel,
  type SandboxMessage,
  type SandboxGuild,
  type SandboxMember,
  type SandboxRole,
  type SandboxUser,
} from './sandbox.ts';

/*
 * The sandbox's objects in Discord's JSON shapes, typed by discord-api-types so a shape that drifts
 * from Discord's fails the typecheck. Shared by its REST API and its gateway.
 */

export const userJson = (u: SandboxUser): APIUser => ({
  id: u.id,
  username: u.username,
  discriminator: '0',
  global_name: u.globalName,
  avatar: null,
  ...(u.bot ? { bot: true } : {}),
  public_flags: 0 as UserFlags,
  flags: 0 as UserFlags,
});

export const roleJson = (r: SandboxRole, botId: string): APIRole => ({
  id: r.id,
  name: r.name,
  color: 0,
  colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
  hoist: false,
  icon: null,
  unicode_emoji: null,
  position: r.position,
  permissions: r.permissions,
  managed: r.managed,
  mentionable: false,
  flags: 0 as RoleFlags,
  // A managed role says what owns it: the bot's role names the bot, others stand for a booster role.
  ...(r.managed
    ? { tags: r.name === SANDBOX_APP_NAME ? { bot_id: botId } : { premium_subscriber: null } }
    : {}),
});

/** A guild as `GET /guilds/{id}` and the bot flow's token answer describe it. */
export const guildJson = (guild: SandboxGuild, roles: SandboxRole[], botId: string): APIGuild => ({
  id: guild.id,
  name: guild.name,
  icon: null,
  splash: null,
  discovery_splash: null,
  owner_id: guild.ownerId,
  afk_channel_id: null,
  afk_timeout: 300,
  verification_level: 0,
  default_message_notifications: 0,
  explicit_content_filter: 0,
  roles: roles.map((r) => roleJson(r, botId)),
  emojis: [],
  features: [],
  mfa_level: 0,
  application_id: null,
  system_channel_id: null,
  system_channel_flags: 0 as GuildSystemChannelFlags,
  rules_channel_id: null,
  vanity_url_code: null,
  description: null,
  banner: null,
  premium_tier: 0,
  preferred_locale: Locale.EnglishUS,
  public_updates_channel_id: null,
  nsfw_level: 0,
  premium_progress_bar_enabled: false,
  stickers: [],
  hub_type: null,
  safety_alerts_channel_id: null,
  incidents_data: null,
});

export const memberJson = (m: SandboxMember): APIGuildMember => ({
  user: userJson({
    id: m.userId,
    username: m.username,
    globalName: m.globalName,
    bot: m.bot,
    createdAt: m.joinedAt,
  }),
  nick: null,
  avatar: null,
  roles: m.roleIds,
  joined_at: new Date(m.joinedAt).toISOString(),
  deaf: false,
  mute: false,
  flags: 0 as GuildMemberFlags,
  pending: false,
});

/** A text channel as `GET /channels/{id}` and `POST /guilds/{id}/channels` answer it. */
export const channelJson = (c: SandboxChannel): APITextChannel => ({
  id: c.id,
  type: ChannelType.GuildText,
  guild_id: c.guildId,
  name: c.name,
  position: c.position,
  permission_overwrites: c.overwrites.map((o) => ({
    id: o.id,
    type: o.type === 1 ? OverwriteType.Member : OverwriteType.Role,
    allow: o.allow,
    deny: o.deny,
  })),
  nsfw: false,
  parent_id: null,
  topic: c.topic,
  last_message_id: null,
  rate_limit_per_user: 0,
  flags: 0 as ChannelFlags,
});

/** A message as `POST /channels/{id}/messages` answers it. */
export const messageJson = (m: SandboxMessage, author: SandboxUser): APIMessage => ({
  id: m.id,
  type: MessageType.Default,
  channel_id: m.channelId,
  author: userJson(author),
  content: m.content,
  timestamp: new Date(m.createdAt).toISOString(),
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: m.embeds as APIEmbed[],
  pinned: false,
  ...(m.nonce !== null ? { nonce: m.nonce } : {}),
  flags: 0 as MessageFlags,
  components: [],
});
