import { PermissionFlagsBits } from 'discord-api-types/v10';

/*
 * Discord's permission rules that both sides need: the adapter explains why a role cannot be
 * assigned, the sandbox refuses the call for the same reason. See Discord's "Permissions" topic.
 */

/** What the bot asks for when a vendor adds it: assign roles and create single-use invites. */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ManageRoles | PermissionFlagsBits.CreateInstantInvite;

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
