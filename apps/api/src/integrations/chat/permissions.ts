import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { ChannelReport, ChatChannel, ChatMember } from './port.ts';

/*
 * Discord's permission rules that both sides need: the adapter explains why a role cannot be
 * assigned, the sandbox refuses the call for the same reason. See Discord's "Permissions" topic.
 */

/**
 * What the bot asks for when a vendor adds it: assign roles and create single-use invites; for alert
 * channels (ADR 059), create a channel only a product's role reads, and post alerts with a card. A
 * bot may only allow or deny in a channel what it holds itself, hence View Channel and Read Message
 * History too.
 */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ManageRoles |
  PermissionFlagsBits.CreateInstantInvite |
  PermissionFlagsBits.ManageChannels |
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ReadMessageHistory;

/** What an alert channel's readers get, and what the bot needs there to post (ADR 059). */
export const READER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory;
export const POSTER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks;

/** What the bot needs in a server to create alert channels and post to them. */
export const ALERT_CHANNEL_PERMISSIONS =
  PermissionFlagsBits.ManageChannels | POSTER_PERMISSIONS | PermissionFlagsBits.ReadMessageHistory;

/** The bot permissions by name, as Discord's pages and our reports name them. */
export const PERMISSION_NAMES: ReadonlyArray<readonly [bigint, string]> = [
  [PermissionFlagsBits.ManageRoles, 'Manage Roles'],
  [PermissionFlagsBits.CreateInstantInvite, 'Create Invite'],
  [PermissionFlagsBits.ManageChannels, 'Manage Channels'],
  [PermissionFlagsBits.ViewChannel, 'View Channels'],
  [PermissionFlagsBits.SendMessages, 'Send Messages'],
  [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
  [PermissionFlagsBits.ReadMessageHistory, 'Read Message History'],
];

/** The names of the permissions in `bits` (of those the bot asks for). */
export const permissionNames = (bits: bigint) =>
  PERMISSION_NAMES.filter(([flag]) => (bits & flag) === flag).map(([, name]) => name);

const ALL = (1n << 64n) - 1n;

export interface RoleFacts {
  id: string;
  position: number;
  /** Decimal string, as in Discord's JSON. */
  permissions: string;
}

/** The member's permissions in the guild: @everyone's (id = guild id), their roles', all for owners and admins. */
export function guildPermissions(
  guild: { id: string; ownerId: string | null },
  roles: readonly RoleFacts[],
  member: { userId: string; roleIds: readonly string[] },
): bigint {
  if (guild.ownerId === member.userId) return ALL;
  const held = new Set([guild.id, ...member.roleIds]);
  let bits = 0n;
  for (const role of roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
  return (bits & PermissionFlagsBits.Administrator) !== 0n ? ALL : bits;
}

export const hasPermission = (bits: bigint, flag: bigint) => (bits & flag) === flag;

/** The member's highest role position (0: only @everyone). */
export function highestPosition(roles: readonly RoleFacts[], roleIds: readonly string[]): number {
  const held = new Set(roleIds);
  let top = 0;
  for (const role of roles) if (held.has(role.id) && role.position > top) top = role.position;
  return top;
}

/** A channel's permission overwrite: type 0 a role (the guild id: @everyone), 1 a member. */
export interface OverwriteFacts {
  id: string;
  type: 0 | 1;
  /** Decimal strings, as in Discord's JSON. */
  allow: string;
  deny: string;
}

/**
 * An alert channel's overwrites: hidden from @everyone; the readers view and read history but do
 * not write (a feed is one-way); the bot views, sends, embeds and reads history.
 */
export function alertChannelOverwrites(
  guildId: string,
  botId: string,
  readerRoleIds: readonly string[],
): OverwriteFacts[] {
  return [
    { id: guildId, type: 0, allow: '0', deny: PermissionFlagsBits.ViewChannel.toString() },
    ...readerRoleIds.map((id) => ({
      id,
      type: 0 as const,
      allow: READER_PERMISSIONS.toString(),
      deny: PermissionFlagsBits.SendMessages.toString(),
    })),
    {
      id: botId,
      type: 1,
      allow: (POSTER_PERMISSIONS | PermissionFlagsBits.ReadMessageHistory).toString(),
      deny: '0',
    },
  ];
}

/**
 * The member's permissions in a channel, by Discord's order: the guild's, then @everyone's
 * overwrite, then the member's roles' overwrites together (denies, then allows), then the member's
 * own. Administrators and the owner have everything; without View Channel, nothing else counts.
 */
export function channelPermissions(
  guild: { id: string; ownerId: string | null },
  roles: readonly RoleFacts[],
  member: { userId: string; roleIds: readonly string[] },
  overwrites: readonly OverwriteFacts[],
): bigint {
  const base = guildPermissions(guild, roles, member);
  if (base === ALL) return ALL;
  let bits = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) bits = (bits & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites)
    if (o.type === 0 && o.id !== guild.id && member.roleIds.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  bits = (bits & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
  if (own) bits = (bits & ~BigInt(own.deny)) | BigInt(own.allow);
  return hasPermission(bits, PermissionFlagsBits.ViewChannel) ? bits : 0n;
}

const NO_ONE = '0';

/**
 * Who can read a channel and what stops the bot posting, from the guild's roles and the channel's
 * overwrites (Discord's permission order, `channelPermissions`). The adapter reports it to vendors; the sandbox's pages show the same.
 */
export function describeChannel(
  guild: { id: string; name: string; ownerId: string | null },
  roles: ReadonlyArray<{
    id: string;
    name: string;
    position: number;
    permissions: string;
    managed: boolean;
  }>,
  bot: ChatMember | null,
  channel: ChatChannel,
  overwrites: readonly OverwriteFacts[],
  readerRoleIds: readonly string[],
): ChannelReport {
  const canView = (roleIds: string[]) =>
    hasPermission(
      channelPermissions(guild, roles, { userId: NO_ONE, roleIds }, overwrites),
      PermissionFlagsBits.ViewChannel,
    );
  const everyone = canView([]);
  const readers = [...roles]
    .filter((r) => r.id !== guild.id && !r.managed && canView([r.id]))
    .sort((a, b) => b.position - a.position)
    .map((r) => r.name);
  const where = `#${channel.name}`;
  const problems: string[] = [];
  if (!bot)
    problems.push(`The bot is not in ${guild.name} any more: add it again with the install link.`);
  else {
    const bits = channelPermissions(guild, roles, bot, overwrites);
    if (!hasPermission(bits, PermissionFlagsBits.ViewChannel))
      problems.push(
        `The bot cannot see ${where}: in the channel's settings → Permissions, allow View Channel for the Tradeshelf role.`,
      );
    else if (!hasPermission(bits, PermissionFlagsBits.SendMessages))
      problems.push(
        `The bot cannot post in ${where}: in the channel's settings → Permissions, allow Send Messages for the Tradeshelf role.`,
      );
    if (
      hasPermission(bits, PermissionFlagsBits.ViewChannel) &&
      !hasPermission(bits, PermissionFlagsBits.EmbedLinks)
    )
      problems.push(
        `The bot lacks Embed Links in ${where}, so alerts arrive without their card: allow Embed Links for the Tradeshelf role.`,
      );
  }
  if (everyone)
    problems.push(
      `Everyone in ${guild.name} can read ${where}, not only subscribers: deny View Channel for @everyone in the channel's permissions.`,
    );
  for (const id of readerRoleIds) {
    const role = roles.find((r) => r.id === id);
    if (!role)
      problems.push(
        `A role of this product (${id}) no longer exists in ${guild.name}: bind the product again.`,
      );
    else if (!everyone && !canView([id]))
      problems.push(
        `Subscribers (role “${role.name}”) cannot read ${where}: allow View Channel for that role in the channel's permissions.`,
      );
  }
  return { channel, readers, everyone, problems };
}
