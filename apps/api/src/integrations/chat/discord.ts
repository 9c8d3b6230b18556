import {
  DiscordAPIError,
  HTTPError,
  RateLimitError,
  REST,
  RequestMethod,
  type RateLimitData,
  type RequestData,
  type RouteLike,
} from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents, type SessionInfo } from '@discordjs/ws';
import {
  ChannelType,
  GatewayDispatchEvents,
  GatewayIntentBits,
  OverwriteType,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Routes,
  type APIChannel,
  type APIMessage,
  type RESTPostAPIChannelMessageJSONBody,
  type RESTPostAPIGuildChannelJSONBody,
  type APIGuild,
  type APIGuildMember,
  type APIInvite,
  type APIRole,
  type APIUser,
  type GatewayDispatchPayload,
  type RESTPostOAuth2AccessTokenResult,
  type RESTPostOAuth2AccessTokenWithBotAndGuildsScopeResult,
} from 'discord-api-types/v10';
import {
  ALERT_CHANNEL_PERMISSIONS,
  alertChannelOverwrites,
  BOT_PERMISSIONS,
  permissionNames,
  describeChannel,
  guildPermissions,
  hasPermission,
  highestPosition,
  type OverwriteFacts,
} from './permissions.ts';
import {
  ChatError,
  type ChannelReport,
  type ChatChannel,
  type ChatGrant,
  type ChatPost,
  type ChatGuild,
  type ChatMember,
  type ChatProvider,
  type ChatRole,
  type ChatUser,
  type MemberEvent,
  type RoleReport,
} from './port.ts';

export interface DiscordChatOptions {
  /** Discord's API base, without the version. */
  apiUrl?: string;
  /** Where the OAuth2 authorize page lives. */
  webUrl?: string;
  /** Invite links are `${inviteUrl}/${code}`. */
  inviteUrl?: string;
  clientId: string;
  clientSecret: string;
  botToken: string;
  /** 429 answers waited out per call before it fails as `rate_limited` (default 3). */
  rateLimitRetries?: number;
  /** A rate limit asking for a longer wait fails at once, for the job to retry later (default 10 s). */
  maxRateLimitWaitMs?: number;
  /** Retries of a 5xx or a timeout (default 3). */
  retries?: number;
  /** Per attempt (default 15 s). */
  timeoutMs?: number;
}

export const DISCORD_CDN = 'https://cdn.discordapp.com';
const CDN = DISCORD_CDN;
const API_VERSION = '10';

/** The bot's intents: guild and member events (GuildMembers is privileged: enable it in the portal). */
export const GATEWAY_INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers;

const toMember = (
  m: Pick<APIGuildMember, 'roles'> & { user: Pick<APIUser, 'id'> },
): ChatMember => ({
  userId: m.user.id,
  roleIds: [...m.roles],
});

const toGuild = (g: Pick<APIGuild, 'id' | 'name' | 'icon'>): ChatGuild => ({
  id: g.id,
  name: g.name,
  iconUrl: g.icon ? `${CDN}/icons/${g.id}/${g.icon}.png` : null,
});

/** Discord's token answer; the bot flow's also names the server the bot was added to. */
type TokenAnswer = RESTPostOAuth2AccessTokenResult &
  Partial<Pick<RESTPostOAuth2AccessTokenWithBotAndGuildsScopeResult, 'guild'>>;

/** A gateway dispatch as a member event, or null for every other event. */
export function memberEventFromDispatch(payload: GatewayDispatchPayload): MemberEvent | null {
  switch (payload.t) {
    case GatewayDispatchEvents.GuildMemberAdd:
      return { type: 'member.joined', guildId: payload.d.guild_id, member: toMember(payload.d) };
    case GatewayDispatchEvents.GuildMemberUpdate:
      return { type: 'member.updated', guildId: payload.d.guild_id, member: toMember(payload.d) };
    case GatewayDispatchEvents.GuildMemberRemove:
      return { type: 'member.left', guildId: payload.d.guild_id, userId: payload.d.user.id };
    default:
      return null;
  }
}

/**
 * The chat port over Discord's HTTP API v10 (ADR 030), with @discordjs/rest doing what Discord asks
 * of clients: per-route buckets from the `X-RateLimit-*` headers, the 50 requests/s global limit,
 * waiting out 429s, retrying 5xx; member events from the gateway through @discordjs/ws. The same
 * class talks to the sandbox, which speaks both.
 */
export class DiscordChat implements ChatProvider {
  private readonly apiUrl: string;
  private readonly webUrl: string;
  private readonly inviteUrl: string;
  /** Bot-token calls: one global limit for the bot. */
  private readonly bot: REST;
  /** User-token and token-endpoint calls: not the bot's limit, and a 401 must not clear the bot token. */
  private readonly user: REST;
  private readonly rateLimitRetries: number;
  private readonly maxWaitMs: number;
  /** 429s in a row per `METHOD /route`; cleared by any other answer. */
  private readonly limited = new Map<string, number>();
  private botUserId: Promise<string> | null = null;
  private gateway: WebSocketManager | null = null;
  /** This adapter's gateway session, for resuming: not the library's store shared by the process. */
  private session: SessionInfo | null = null;

  constructor(private readonly options: DiscordChatOptions) {
    this.apiUrl = (options.apiUrl ?? 'https://discord.com/api').replace(/\/$/, '');
    this.webUrl = (options.webUrl ?? 'https://discord.com').replace(/\/$/, '');
    this.inviteUrl = (options.inviteUrl ?? 'https://discord.gg').replace(/\/$/, '');
    this.rateLimitRetries = options.rateLimitRetries ?? 3;
    this.maxWaitMs = options.maxRateLimitWaitMs ?? 10_000;
    this.bot = this.rest().setToken(options.botToken);
    this.user = this.rest();
  }

  private rest(): REST {
    const rest = new REST({
      api: this.apiUrl,
      version: API_VERSION,
      retries: this.options.retries ?? 3,
      timeout: this.options.timeoutMs ?? 15_000,
      globalRequestsPerSecond: 50,
      userAgentAppendix: 'Tradeshelf',
      rejectOnRateLimit: (data) => this.giveUp(data),
    });
    rest.on('response', (request, response) => {
      const key = `${request.method.toUpperCase()} ${request.path}`;
      if (response.status === 429) this.limited.set(key, (this.limited.get(key) ?? 0) + 1);
      else this.limited.delete(key);
    });
    return rest;
  }

  /** Waits out short limits; a long one, or the same call limited again and again, fails. */
  private giveUp(data: RateLimitData): boolean {
    const path = data.url.slice(`${this.apiUrl}/v${API_VERSION}`.length).split('?')[0]!;
    const key = `${data.method.toUpperCase()} ${path}`;
    const wait = Math.max(data.retryAfter, data.timeToReset);
    if (wait <= this.maxWaitMs && (this.limited.get(key) ?? 0) <= this.rateLimitRetries)
      return false;
    this.limited.delete(key);
    return true;
  }

  /* OAuth2 */

  authorizeUrl(input: { state: string; redirectUri: string; scopes: string[] }): string {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      scope: input.scopes.join(' '),
      state: input.state,
      redirect_uri: input.redirectUri,
      prompt: 'none',
    });
    return `${this.webUrl}/oauth2/authorize?${q}`;
  }

  installUrl(input: { state: string; redirectUri: string }): string {
    const q = new URLSearchParams({
      client_id: this.options.clientId,
      scope: 'bot',
      permissions: BOT_PERMISSIONS.toString(),
      state: input.state,
      redirect_uri: input.redirectUri,
      response_type: 'code',
    });
    return `${this.webUrl}/oauth2/authorize?${q}`;
  }

  /** The authorization-code grant at `POST /oauth2/token` (form-encoded, client credentials). */
  private async redeem(code: string, redirectUri: string): Promise<TokenAnswer> {
    return (await this.call(this.user, RequestMethod.Post, Routes.oauth2TokenExchange(), {
      auth: false,
      passThroughBody: true,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }).toString(),
    })) as TokenAnswer;
  }

  async exchangeCode(code: string, redirectUri: string): Promise<ChatGrant> {
    const token = await this.redeem(code, redirectUri);
    return {
      accessToken: token.access_token,
      refreshToken: token.refresh_token ?? null,
      expiresAt: new Date(Date.now() + token.expires_in * 1000),
      scopes: token.scope.split(' ').filter(Boolean),
    };
  }

  async exchangeInstall(code: string, redirectUri: string): Promise<ChatGuild> {
    const token = await this.redeem(code, redirectUri);
    // Only a code from the bot flow carries the server; any other (a buyer's sign-in) does not.
    if (!token.guild)
      throw new ChatError('invalid_grant', 'That Discord authorisation added no bot to a server.');
    return toGuild(token.guild);
  }

  async currentUser(accessToken: string): Promise<ChatUser> {
    const user = (await this.call(this.user, RequestMethod.Get, Routes.user('@me'), {
      auth: false,
      headers: { Authorization: `Bearer ${accessToken}` },
    })) as APIUser;
    return {
      id: user.id,
      username: user.username,
      globalName: user.global_name ?? null,
      avatarUrl: user.avatar ? `${CDN}/avatars/${user.id}/${user.avatar}.png` : null,
    };
  }

  /* Guilds, roles, members */

  async guild(guildId: string): Promise<ChatGuild> {
    return toGuild(await this.fetchGuild(guildId));
  }

  async roles(guildId: string): Promise<ChatRole[]> {
    const roles = (await this.call(
      this.bot,
      RequestMethod.Get,
      Routes.guildRoles(guildId),
    )) as APIRole[];
    return roles.map((r) => ({ id: r.id, name: r.name, position: r.position, managed: r.managed }));
  }

  async roleProblems(guildId: string, roleIds: string[]): Promise<string[]> {
    const report = await this.roleReport(guildId, roleIds);
    return [...report.server, ...roleIds.flatMap((id) => report.byRole[id] ?? [])];
  }

  async roleReport(guildId: string, roleIds: string[]): Promise<RoleReport> {
    let guild: APIGuild;
    try {
      guild = await this.fetchGuild(guildId);
    } catch (err) {
      // The bot was removed from the server (or it never existed): that is the one problem.
      if (err instanceof ChatError && (err.kind === 'not_found' || err.kind === 'forbidden'))
        return {
          server: ['The bot is not in this server any more: add it again with the install link.'],
          byRole: {},
          channels: [],
        };
      throw err;
    }
    const botId = await this.currentBotId();
    const bot = await this.member(guildId, botId);
    if (!bot)
      return {
        server: [`The bot is not in ${guild.name} any more: add it again with the install link.`],
        byRole: {},
        channels: [],
      };
    const roles = guild.roles;
    const facts = { id: guild.id, ownerId: guild.owner_id };
    const permissions = guildPermissions(facts, roles, bot);
    const top = highestPosition(roles, bot.roleIds);
    const botRole =
      roles
        .filter((r) => bot.roleIds.includes(r.id))
        .sort((a, b) => b.position - a.position)
        .find((r) => r.managed)?.name ?? 'Tradeshelf';
    const server: string[] = [];
    const byRole: Record<string, string> = {};
    if (!hasPermission(permissions, PermissionFlagsBits.ManageRoles)) {
      server.push(
        `The bot needs the Manage Roles permission in ${guild.name}: Server Settings → Roles → ${botRole} → turn on Manage Roles.`,
      );
    }
    for (const id of roleIds) {
      const role = roles.find((r) => r.id === id);
      if (!role)
        byRole[id] = `A role (${id}) no longer exists in ${guild.name}: pick another role.`;
      else if (role.id === guild.id)
        byRole[id] = '“@everyone” is every member’s role and cannot be assigned.';
      else if (role.managed)
        byRole[id] = `“${role.name}” is managed by an integration and cannot be assigned.`;
      else if (role.position >= top && guild.owner_id !== botId)
        byRole[id] =
          `The role “${role.name}” sits above the bot's role: drag the ${botRole} role above it in Server Settings → Roles.`;
    }
    const lacking = permissionNames(ALERT_CHANNEL_PERMISSIONS & ~permissions);
    const channels = lacking.length
      ? [
          `For alert channels the bot also needs ${lacking.join(', ')} in ${guild.name}: Server Settings → Roles → ${botRole}, or add the bot again with the install link.`,
        ]
      : [];
    return { server, byRole, channels };
  }

  async member(guildId: string, userId: string): Promise<ChatMember | null> {
    try {
      const m = (await this.call(
        this.bot,
        RequestMethod.Get,
        Routes.guildMember(guildId, userId),
      )) as APIGuildMember & { user: APIUser };
      return toMember(m);
    } catch (err) {
      if (err instanceof ChatError && err.kind === 'not_found' && isUnknownMember(err)) return null;
      throw err;
    }
  }

  async listMembers(
    guildId: string,
    page: { after: string | null; limit: number },
  ): Promise<ChatMember[]> {
    const query = new URLSearchParams({
      limit: String(Math.min(1000, Math.max(1, page.limit))),
      after: page.after ?? '0',
    });
    const members = (await this.call(this.bot, RequestMethod.Get, Routes.guildMembers(guildId), {
      query,
    })) as Array<APIGuildMember & { user: APIUser }>;
    return members.map(toMember);
  }

  async addMember(
    guildId: string,
    userId: string,
    accessToken: string,
    roleIds: string[],
  ): Promise<'added' | 'already'> {
    const res = await this.send(this.bot, RequestMethod.Put, Routes.guildMember(guildId, userId), {
      body: { access_token: accessToken, roles: roleIds },
    });
    // 201 with the member when added; 204 when they were in already (roles then ignored).
    await res.arrayBuffer();
    return res.status === 201 ? 'added' : 'already';
  }

  async addRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void> {
    await this.call(this.bot, RequestMethod.Put, Routes.guildMemberRole(guildId, userId, roleId), {
      reason,
    });
  }

  async removeRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void> {
    try {
      await this.call(
        this.bot,
        RequestMethod.Delete,
        Routes.guildMemberRole(guildId, userId, roleId),
        { reason },
      );
    } catch (err) {
      // Someone who left, or a role deleted since, holds nothing to remove.
      if (err instanceof ChatError && err.kind === 'not_found' && !isUnknownGuild(err)) return;
      throw err;
    }
  }

  async createInvite(
    guildId: string,
    maxAgeSeconds: number,
  ): Promise<{ url: string; expiresAt: Date }> {
    const channels = (await this.call(
      this.bot,
      RequestMethod.Get,
      Routes.guildChannels(guildId),
    )) as APIChannel[];
    const text = channels
      .filter((c) => c.type === 0)
      .sort((a, b) => ('position' in a ? a.position : 0) - ('position' in b ? b.position : 0))[0];
    if (!text) throw new ChatError('not_found', 'The server has no text channel to invite to.');
    const invite = (await this.call(this.bot, RequestMethod.Post, Routes.channelInvites(text.id), {
      body: { max_age: maxAgeSeconds, max_uses: 1, unique: true },
    })) as APIInvite;
    return {
      url: `${this.inviteUrl}/${invite.code}`,
      expiresAt: invite.expires_at
        ? new Date(invite.expires_at)
        : new Date(Date.now() + maxAgeSeconds * 1000),
    };
  }

  /* Alert channels (ADR 059) */

  async createChannel(
    guildId: string,
    input: { name: string; topic: string; readerRoleIds: string[] },
  ): Promise<ChatChannel> {
    const botId = await this.currentBotId();
    const body = {
      name: input.name,
      type: ChannelType.GuildText,
      topic: input.topic,
      permission_overwrites: alertChannelOverwrites(guildId, botId, input.readerRoleIds).map(
        (o) => ({ ...o, type: o.type === 1 ? OverwriteType.Member : OverwriteType.Role }),
      ),
    } satisfies RESTPostAPIGuildChannelJSONBody;
    try {
      const channel = (await this.call(
        this.bot,
        RequestMethod.Post,
        Routes.guildChannels(guildId),
        {
          body,
          reason: 'Tradeshelf: alert channel',
        },
      )) as APIChannel;
      return { id: channel.id, guildId, name: channel.name ?? input.name };
    } catch (err) {
      if (err instanceof ChatError && err.kind === 'forbidden' && isMissing(err))
        throw new DiscordChatError(
          'forbidden',
          'The bot needs the Manage Channels, View Channels, Send Messages, Embed Links and Read Message History permissions to create the channel: Server Settings → Roles → Tradeshelf, or add the bot again with the install link.',
          (err as DiscordChatError).code,
        );
      throw err;
    }
  }

  async channelReport(
    guildId: string,
    channelId: string,
    readerRoleIds: string[],
  ): Promise<ChannelReport> {
    let channel: APIChannel;
    try {
      channel = (await this.call(
        this.bot,
        RequestMethod.Get,
        Routes.channel(channelId),
      )) as APIChannel;
    } catch (err) {
      if (err instanceof ChatError && (err.kind === 'not_found' || isMissing(err)))
        throw new ChatError(
          'not_found',
          'The bot cannot find that channel: check the id, or allow View Channel for the Tradeshelf role in it.',
        );
      throw err;
    }
    if (channel.type !== ChannelType.GuildText || channel.guild_id !== guildId)
      throw new ChatError('not_found', 'That is not a text channel of the bound server.');
    const guild = await this.fetchGuild(guildId);
    const bot = await this.member(guildId, await this.currentBotId());
    const overwrites: OverwriteFacts[] = (channel.permission_overwrites ?? []).map((o) => ({
      id: o.id,
      type: o.type === OverwriteType.Member ? 1 : 0,
      allow: o.allow,
      deny: o.deny,
    }));
    return describeChannel(
      { id: guild.id, name: guild.name, ownerId: guild.owner_id },
      guild.roles,
      bot,
      { id: channel.id, guildId, name: channel.name ?? channelId },
      overwrites,
      readerRoleIds,
    );
  }

  channelUrl(guildId: string, channelId: string): string {
    return `${this.webUrl}/channels/${guildId}/${channelId}`;
  }

  async postMessage(channelId: string, post: ChatPost, nonce: string): Promise<{ id: string }> {
    const card = post.card;
    const body = {
      content: post.content,
      nonce,
      // Discord answers the same nonce from the bot within minutes with the first message.
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: card.title,
          description: card.text || undefined,
          color: card.color,
          timestamp: card.at,
          ...(card.url ? { url: card.url } : {}),
          fields: card.fields.map((f) => ({ ...f, inline: true })),
          ...(card.imageUrl ? { image: { url: card.imageUrl } } : {}),
        },
      ],
    } satisfies RESTPostAPIChannelMessageJSONBody;
    try {
      const message = (await this.call(
        this.bot,
        RequestMethod.Post,
        Routes.channelMessages(channelId),
        { body },
      )) as APIMessage;
      return { id: message.id };
    } catch (err) {
      if (err instanceof ChatError && err.kind === 'forbidden' && isMissing(err))
        throw new DiscordChatError(
          'forbidden',
          'The bot may not post in the channel: in its settings → Permissions, allow View Channel, Send Messages and Embed Links for the Tradeshelf role.',
          (err as DiscordChatError).code,
        );
      throw err;
    }
  }

  /* Member events */

  async watchMembers(listener: (event: MemberEvent) => void): Promise<void> {
    if (this.gateway) await this.gateway.destroy();
    const gateway = new WebSocketManager({
      token: this.options.botToken,
      intents: GATEWAY_INTENTS,
      rest: this.bot,
      retrieveSessionInfo: () => this.session,
      updateSessionInfo: (_shardId, info) => {
        this.session = info;
      },
    });
    gateway.on(WebSocketShardEvents.Dispatch, (payload) => {
      const event = memberEventFromDispatch(payload);
      if (event) listener(event);
    });
    this.gateway = gateway;
    await gateway.connect();
  }

  async close(): Promise<void> {
    if (this.gateway) await this.gateway.destroy();
    this.gateway = null;
    for (const rest of [this.bot, this.user]) {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    }
  }

  /* Plumbing */

  private currentBotId(): Promise<string> {
    this.botUserId ??= this.call(this.bot, RequestMethod.Get, Routes.user('@me')).then(
      (u) => (u as APIUser).id,
      (err: unknown) => {
        this.botUserId = null;
        throw err;
      },
    );
    return this.botUserId;
  }

  private async fetchGuild(guildId: string): Promise<APIGuild> {
    return (await this.call(this.bot, RequestMethod.Get, Routes.guild(guildId))) as APIGuild;
  }

  /** One request, its JSON answer, failures as ChatError. */
  private async call(
    rest: REST,
    method: RequestMethod,
    route: RouteLike,
    data: RequestData = {},
  ): Promise<unknown> {
    try {
      return await rest.request({ fullRoute: route, method, ...data });
    } catch (err) {
      throw this.toChatError(rest, err);
    }
  }

  /** One request, its raw answer (when the status matters), failures as ChatError. */
  private async send(rest: REST, method: RequestMethod, route: RouteLike, data: RequestData = {}) {
    try {
      return await rest.queueRequest({ fullRoute: route, method, ...data });
    } catch (err) {
      throw this.toChatError(rest, err);
    }
  }

  private toChatError(rest: REST, err: unknown): ChatError {
    if (err instanceof ChatError) return err;
    if (err instanceof RateLimitError) {
      return new ChatError(
        'rate_limited',
        'Discord asked us to slow down; this is retried shortly.',
        Math.max(err.retryAfter, err.timeToReset),
      );
    }
    if (err instanceof DiscordAPIError) {
      if (err.status === 401 && rest === this.bot) {
        // The client forgets a refused token; set it again so the next call is tried, not thrown.
        rest.setToken(this.options.botToken);
        return new DiscordChatError('forbidden', 'Discord refused the bot token.', err.code);
      }
      return fromDiscordError(err);
    }
    if (err instanceof HTTPError)
      return new ChatError('unavailable', `Discord is not answering (HTTP ${err.status}).`);
    // Timeouts, refused connections, resets.
    const message = err instanceof Error ? err.message : String(err);
    return new ChatError('unavailable', `Discord could not be reached: ${message}`);
  }
}

/** Keeps Discord's JSON error code with the ChatError, for callers that must tell cases apart. */
class DiscordChatError extends ChatError {
  constructor(
    kind: ConstructorParameters<typeof ChatError>[0],
    message: string,
    readonly code: number | string,
  ) {
    super(kind, message);
  }
}

/** Discord's 403s: Missing Access (cannot see it) and Missing Permissions. */
const isMissing = (err: ChatError) =>
  err instanceof DiscordChatError &&
  (err.code === RESTJSONErrorCodes.MissingAccess ||
    err.code === RESTJSONErrorCodes.MissingPermissions);

const isUnknownMember = (err: ChatError) =>
  err instanceof DiscordChatError &&
  (err.code === RESTJSONErrorCodes.UnknownMember || err.code === RESTJSONErrorCodes.UnknownUser);
const isUnknownGuild = (err: ChatError) =>
  err instanceof DiscordChatError && err.code === RESTJSONErrorCodes.UnknownGuild;

function fromDiscordError(err: DiscordAPIError): ChatError {
  const code = err.code;
  switch (code) {
    case RESTJSONErrorCodes.UnknownGuild:
      return new DiscordChatError('not_found', 'That Discord server no longer exists.', code);
    case RESTJSONErrorCodes.UnknownMember:
    case RESTJSONErrorCodes.UnknownUser:
      return new DiscordChatError('not_found', 'That person is not in the Discord server.', code);
    case RESTJSONErrorCodes.UnknownRole:
      return new DiscordChatError('not_found', 'That Discord role no longer exists.', code);
    case RESTJSONErrorCodes.UnknownChannel:
      return new DiscordChatError('not_found', 'That Discord channel no longer exists.', code);
    case RESTJSONErrorCodes.MissingPermissions:
      return new DiscordChatError(
        'forbidden',
        'The bot lacks a permission it needs, or the role sits above its own.',
        code,
      );
    case RESTJSONErrorCodes.MissingAccess:
      return new DiscordChatError(
        'forbidden',
        'The bot cannot reach that server: it may have been removed.',
        code,
      );
    case RESTJSONErrorCodes.InvalidOAuth2AccessToken:
      return new DiscordChatError(
        'missing_scope',
        'Connect your Discord account again and allow Tradeshelf to add you to servers.',
        code,
      );
    case 'invalid_client':
      return new DiscordChatError(
        'forbidden',
        'Discord refused the app’s client id or secret: check DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.',
        code,
      );
    case 'invalid_grant':
      return new DiscordChatError(
        'invalid_grant',
        'That Discord sign-in has expired or was already used. Try connecting again.',
        code,
      );
  }
  if (err.status === 401)
    return new DiscordChatError(
      'invalid_grant',
      'Discord no longer accepts that sign-in. Connect your Discord account again.',
      code,
    );
  if (err.status === 404)
    return new DiscordChatError('not_found', 'Discord does not know that.', code);
  // Anything else is our request's fault: retrying it would fail the same way.
  return new DiscordChatError('forbidden', `Discord refused the request: ${err.message}`, code);
}
