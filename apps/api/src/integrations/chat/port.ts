/**
 * The chat port: what access delivery needs from Discord (ADR 030). One adapter speaks Discord's
 * real HTTP API and gateway; locally it talks to the Discord look-alike the app serves under
 * `/sandbox/discord` through `DISCORD_API_URL`, so the sandbox runs the production code path.
 */

/** A Discord account, as `users/@me` describes it. */
export interface ChatUser {
  id: string;
  username: string;
  /** The display name, when the account set one. */
  globalName: string | null;
  /** A CDN URL, or null for the default avatar. */
  avatarUrl: string | null;
}

export interface ChatGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
  /** The scopes the person granted (they may decline `guilds.join`). */
  scopes: string[];
}

export interface ChatGuild {
  id: string;
  name: string;
  iconUrl: string | null;
}

export interface ChatRole {
  id: string;
  name: string;
  /** Higher sits above: a bot manages only roles below its own highest role. */
  position: number;
  /** Owned by an integration (a bot's own role, a booster role): nobody can assign it. */
  managed: boolean;
}

export interface ChatMember {
  userId: string;
  roleIds: string[];
}

/** A membership change in a guild, as the gateway's GUILD_MEMBER_* events report it. */
export type MemberEvent =
  | { type: 'member.joined'; guildId: string; member: ChatMember }
  | { type: 'member.updated'; guildId: string; member: ChatMember }
  | { type: 'member.left'; guildId: string; userId: string };

export type ChatErrorKind =
  /** The provider asked us to wait; `retryAfterMs` says how long. */
  | 'rate_limited'
  /** The bot lacks a permission or the role sits above its own. */
  | 'forbidden'
  /** Unknown guild, member, role or invite. */
  | 'not_found'
  /** An OAuth2 code that is unknown, expired or used. */
  | 'invalid_grant'
  /** A user token without the scope the call needs (e.g. `guilds.join` declined). */
  | 'missing_scope'
  /** 5xx, timeout, connection refused. */
  | 'unavailable';

/** A provider failure, in words a buyer or vendor can read, and whether retrying may help. */
export class ChatError extends Error {
  constructor(
    readonly kind: ChatErrorKind,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ChatError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

/**
 * What stops the bot in a server (missing Manage Roles), and what stops it per role; `channels`:
 * what it lacks for alert channels (ADR 059), which stops no role binding.
 */
export interface RoleReport {
  server: string[];
  byRole: Record<string, string>;
  channels: string[];
}

/** A text channel in a guild. */
export interface ChatChannel {
  id: string;
  guildId: string;
  name: string;
}

/**
 * Who can read an alert channel and what stops the bot posting there (ADR 059), in words with the
 * fix. `readers` are the role names that can view it; `everyone` when @everyone can.
 */
export interface ChannelReport {
  channel: ChatChannel;
  readers: string[];
  everyone: boolean;
  problems: string[];
}

/** One post: a line of text and a card (Discord's embed) with the alert's facts and chart. */
export interface ChatPost {
  content: string;
  card: {
    title: string;
    text: string;
    fields: Array<{ name: string; value: string }>;
    imageUrl: string | null;
    url: string | null;
    /** ISO-8601, shown as the card's time. */
    at: string;
    /** 0xRRGGBB. */
    color: number;
  };
}

export interface ChatProvider {
  /** The page that asks the person to authorise us (OAuth2 code grant). */
  authorizeUrl(input: { state: string; redirectUri: string; scopes: string[] }): string;
  /** The link a vendor follows to add the bot to a server, with the permissions it needs. */
  installUrl(input: { state: string; redirectUri: string }): string;
  exchangeCode(code: string, redirectUri: string): Promise<ChatGrant>;
  /**
   * Completes a bot install: exchanges the code Discord sent back from the install link and returns
   * the server named in Discord's token answer, the one the person added the bot to. The `guild_id`
   * Discord also puts in the redirect is only a hint anyone can edit, so it is never taken.
   * `invalid_grant` when the code is unknown, expired, used, or added no bot to a server.
   */
  exchangeInstall(code: string, redirectUri: string): Promise<ChatGuild>;
  currentUser(accessToken: string): Promise<ChatUser>;
  guild(guildId: string): Promise<ChatGuild>;
  roles(guildId: string): Promise<ChatRole[]>;
  /**
   * Why the bot cannot assign each of `roleIds` (missing Manage Roles, role above the bot's highest,
   * a managed role, an unknown role), in words with the fix; empty when it can assign them all.
   */
  roleProblems(guildId: string, roleIds: string[]): Promise<string[]>;
  /** The same, per role, from one read of the server: for showing every role with its problem. */
  roleReport(guildId: string, roleIds: string[]): Promise<RoleReport>;
  /** The member, or null when the user is not in the guild. */
  member(guildId: string, userId: string): Promise<ChatMember | null>;
  /** One page of members ordered by user id, after `after` (Discord's cap is 1000 per page). */
  listMembers(
    guildId: string,
    page: { after: string | null; limit: number },
  ): Promise<ChatMember[]>;
  /**
   * Puts the user in the guild with `roleIds`, using their token's `guilds.join` scope. `already`
   * when they were a member (Discord then ignores `roles`: add them one by one).
   */
  addMember(
    guildId: string,
    userId: string,
    accessToken: string,
    roleIds: string[],
  ): Promise<'added' | 'already'>;
  /** Idempotent: adding a held role succeeds. */
  addRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  /** Idempotent: removing a role not held, or from someone who left, succeeds. */
  removeRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  /** A single-use invite to the guild's first text channel, valid `maxAgeSeconds`. */
  createInvite(guildId: string, maxAgeSeconds: number): Promise<{ url: string; expiresAt: Date }>;
  /**
   * Creates a text channel that only `readerRoleIds` (and the bot) can view: @everyone is denied
   * View Channel, the roles may view and read history, the bot may view, send and embed.
   * `forbidden` without Manage Channels (or a permission the bot would grant but lacks).
   */
  createChannel(
    guildId: string,
    input: { name: string; topic: string; readerRoleIds: string[] },
  ): Promise<ChatChannel>;
  /** The channel's readers and problems; `not_found` when it is not a text channel of the guild. */
  channelReport(
    guildId: string,
    channelId: string,
    readerRoleIds: string[],
  ): Promise<ChannelReport>;
  /** Where a person opens the channel (Discord's `channels/{guild}/{channel}` page). */
  channelUrl(guildId: string, channelId: string): string;
  /**
   * Posts once per `nonce`: Discord answers a repeat within minutes with the first message
   * (`enforce_nonce`). Resolves to the message id.
   */
  postMessage(channelId: string, post: ChatPost, nonce: string): Promise<{ id: string }>;
  /** Starts member events (Discord's gateway, or the sandbox's); resolves once listening. */
  watchMembers(listener: (event: MemberEvent) => void): Promise<void>;
  close(): Promise<void>;
}
