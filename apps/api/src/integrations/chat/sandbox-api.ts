import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  PermissionFlagsBits,
  type APIGatewayInfo,
  type RESTPostOAuth2AccessTokenResult,
  type RESTPostOAuth2AccessTokenWithBotAndGuildsScopeResult,
  type RESTPostOAuth2ClientCredentialsResult,
  type RESTPostOAuth2RefreshTokenResult,
} from 'discord-api-types/v10';
import { z } from 'zod';
import { safeEqual } from '../../lib.ts';
import { localOnly } from '../../platform/local-only.ts';
import { hasPermission, type OverwriteFacts } from './permissions.ts';
import {
  TOKEN_TTL_SECONDS,
  type SandboxChannel,
  type SandboxGuild,
  type SandboxRole,
} from './sandbox.ts';
import { gatewayUrl, type SandboxGateway } from './sandbox-gateway.ts';
import {
  channelJson,
  guildJson,
  memberJson,
  messageJson,
  roleJson,
  userJson,
} from './sandbox-json.ts';
import type { SandboxRequest } from './sandbox-traffic.ts';

/*
 * The REST subset of Discord's API v10 the adapter calls, with Discord's JSON shapes, error bodies,
 * authentication and rate limits (ADR 030). Served under `/sandbox/discord/api`, which is what
 * `DISCORD_API_URL` points at in the sandbox.
 */

export const SANDBOX_API_PREFIX = '/sandbox/discord/api';
/** The application's owner, whom a client-credentials token stands for. */
const SANDBOX_OWNER = 'sandbox_owner';
/** What Discord lets a client-credentials token hold. */
const CLIENT_CREDENTIAL_SCOPES = new Set([
  'identify',
  'connections',
  'guilds',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.entitlements',
  'applications.store.update',
]);
const INT64_MAX = 9_223_372_036_854_775_807n;

// Discord answers a malformed id with 400 Invalid Form Body, as the schema's error handler does.
const snowflake = z
  .string()
  .regex(/^\d{1,19}$/, 'Value is not snowflake.')
  .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= INT64_MAX, 'Value is not snowflake.');
const guildParams = z.object({ g: snowflake });
const memberParams = z.object({ g: snowflake, u: snowflake });
const roleParams = z.object({ g: snowflake, u: snowflake, r: snowflake });
const channelParams = z.object({ c: snowflake });
/** Discord takes permission bit sets as decimal strings or integers. */
const bitSet = z
  .union([z.string().regex(/^\d{1,20}$/), z.number().int().min(0)])
  .transform((v) => BigInt(v).toString())
  .default('0');
const ALL_BITS = (1n << 64n) - 1n;

/** Discord's text channel names: lower case, dashes for spaces, no punctuation but - and _. */
export function textChannelName(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/-{2,}/g, '-')
    .slice(0, 100);
}

const embedSchema = z.object({
  title: z.string().max(256).optional(),
  description: z.string().max(4096).optional(),
  url: z.url().optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  footer: z.object({ text: z.string().min(1).max(2048) }).optional(),
  image: z.object({ url: z.url() }).optional(),
  fields: z
    .array(
      z.object({
        name: z.string().min(1).max(256),
        value: z.string().min(1).max(1024),
        inline: z.boolean().optional(),
      }),
    )
    .max(25)
    .optional(),
});
type Embed = z.infer<typeof embedSchema>;

/** Discord's 6 000-character limit over every embed's text. */
const embedLength = (embeds: Embed[]) =>
  embeds.reduce(
    (n, e) =>
      n +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.fields ?? []).reduce((m, f) => m + f.name.length + f.value.length, 0),
    0,
  );

const error = (reply: FastifyReply, status: number, code: number, message: string) =>
  reply.status(status).send({ message, code });
const unauthorized = (reply: FastifyReply) => error(reply, 401, 0, '401: Unauthorized');

const traffic = new WeakMap<FastifyRequest, SandboxRequest>();

export async function sandboxDiscordApi(
  app: FastifyInstance,
  { gateway }: { gateway: SandboxGateway },
): Promise<void> {
  const sandbox = app.deps.discordSandbox!;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The token endpoint takes a form, as Discord's does.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // Every request is logged and counted, then meets injected faults and the rate limits.
  app.addHook('onRequest', async (req, reply) => {
    const now = Date.now();
    const route = (req.routeOptions.url ?? req.url.split('?')[0]!).slice(
      `${SANDBOX_API_PREFIX}/v10`.length,
    );
    const params = req.params as Record<string, string | undefined>;
    const rawReason = req.headers['x-audit-log-reason'];
    let reason: string | null = null;
    if (typeof rawReason === 'string') {
      try {
        reason = decodeURIComponent(rawReason);
      } catch {
        reason = rawReason;
      }
    }
    const entry: SandboxRequest = {
      at: now,
      method: req.method,
      route,
      path: req.url.split('?')[0]!.slice(`${SANDBOX_API_PREFIX}/v10`.length),
      status: 0,
      guildId: params.g ?? null,
      reason,
    };
    traffic.set(req, entry);
    sandbox.traffic.arrive(entry);

    const fault = sandbox.traffic.fault(req.method, route, now);
    const auth = req.headers.authorization;
    const identity = auth ? `auth:${auth}` : `ip:${req.ip}`;
    const admitted = fault
      ? { headers: {}, refusal: fault }
      : sandbox.traffic.admit(identity, req.method, route, params.g ?? params.c ?? 'global', now);
    const refusal = admitted.refusal;
    if (refusal) return reply.status(refusal.status).headers(refusal.headers).send(refusal.body);
    void reply.headers(admitted.headers);
  });
  app.addHook('onResponse', async (req, reply) => {
    const entry = traffic.get(req);
    if (entry) sandbox.traffic.answered(entry, reply.statusCode);
  });

  app.setErrorHandler((err, _req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: Record<string, unknown> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '') || err.validationContext || 'body';
        errors[key] = { _errors: [{ code: 'BASE_TYPE_INVALID', message: issue.message }] };
      }
      return reply.status(400).send({ message: 'Invalid Form Body', code: 50035, errors });
    }
    const { statusCode: status, message } = err as { statusCode?: number; message?: string };
    if (status && status >= 400 && status < 500)
      return reply.status(status).send({ message: `${status}: ${message ?? ''}`, code: 0 });
    app.log.error({ err }, 'discord sandbox failed');
    return reply.status(500).send({ message: '500: Internal Server Error', code: 0 });
  });
  app.setNotFoundHandler((_req, reply) =>
    reply.status(404).send({ message: '404: Not Found', code: 0 }),
  );

  const isBot = (req: FastifyRequest) => {
    const auth = req.headers.authorization;
    return typeof auth === 'string' && safeEqual(auth, `Bot ${sandbox.botToken}`);
  };

  /** The guild when the bot may look at it; otherwise answers as Discord would and returns null. */
  async function botGuild(
    req: FastifyRequest,
    reply: FastifyReply,
    guildId: string,
  ): Promise<SandboxGuild | null> {
    if (!isBot(req)) {
      await unauthorized(reply);
      return null;
    }
    const guild = await sandbox.guild(guildId);
    if (!guild) {
      await error(reply, 404, 10004, 'Unknown Guild');
      return null;
    }
    if (!(await sandbox.member(guildId, sandbox.botId))) {
      await error(reply, 403, 50001, 'Missing Access');
      return null;
    }
    return guild;
  }

  /**
   * The channel when it exists and the bot can see it; otherwise answers as Discord would (Unknown
   * Channel, or Missing Access for a server the bot is not in or a channel hidden from it).
   */
  async function botChannel(
    req: FastifyRequest,
    reply: FastifyReply,
    channelId: string,
  ): Promise<{ channel: SandboxChannel; permissions: bigint } | null> {
    if (!isBot(req)) {
      await unauthorized(reply);
      return null;
    }
    const channel = await sandbox.channel(channelId);
    if (!channel) {
      await error(reply, 404, 10003, 'Unknown Channel');
      return null;
    }
    // The request log names the server, so its page lists channel calls too.
    const entry = traffic.get(req);
    if (entry) entry.guildId = channel.guildId;
    const permissions = await sandbox.permissionsIn(channel, sandbox.botId);
    if (permissions === null || !hasPermission(permissions, PermissionFlagsBits.ViewChannel)) {
      await error(reply, 403, 50001, 'Missing Access');
      return null;
    }
    return { channel, permissions };
  }

  /** Whether the bot may give or take `role`; answers the refusal when not. */
  async function mayAssign(
    reply: FastifyReply,
    guild: SandboxGuild,
    role: SandboxRole,
  ): Promise<boolean> {
    const standing = await sandbox.botStanding(guild);
    const allowed =
      standing &&
      hasPermission(standing.permissions, PermissionFlagsBits.ManageRoles) &&
      !role.managed &&
      (role.position < standing.top || guild.ownerId === sandbox.botId);
    if (!allowed) await error(reply, 403, 50013, 'Missing Permissions');
    return Boolean(allowed);
  }

  /* OAuth2 */

  routes.post('/v10/oauth2/token', { schema: { hide: true } }, async (req, reply) => {
    // Discord reads only a form here: a JSON body reaches it with no grant type at all.
    const isForm = /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '');
    const form = (isForm ? (req.body ?? {}) : {}) as Record<string, string | undefined>;
    let clientId = form.client_id;
    let clientSecret = form.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':');
      clientId = id;
      clientSecret = secret;
    }
    const grantType = form.grant_type;
    if (
      grantType !== 'authorization_code' &&
      grantType !== 'refresh_token' &&
      grantType !== 'client_credentials'
    )
      return reply.status(400).send({
        error: 'unsupported_grant_type',
        error_description: `Grant type ${grantType ?? 'None'} is not supported`,
      });
    if (
      !clientId ||
      !clientSecret ||
      clientId !== sandbox.clientId ||
      !safeEqual(clientSecret, sandbox.clientSecret)
    )
      return reply.status(401).send({ error: 'invalid_client' });

    if (grantType === 'client_credentials') {
      // A token for the application's owner, with the scopes asked for (no refresh token).
      const scopes = (form.scope ?? '').split(' ').filter(Boolean);
      if (!scopes.length || scopes.some((s) => !CLIENT_CREDENTIAL_SCOPES.has(s)))
        return reply.status(400).send({ error: 'invalid_scope' });
      const owner = await sandbox.ensureUser(SANDBOX_OWNER);
      const token = await sandbox.issueToken(owner!.id, scopes);
      return {
        token_type: 'Bearer',
        access_token: token.accessToken,
        expires_in: TOKEN_TTL_SECONDS,
        scope: scopes.join(' '),
      } satisfies RESTPostOAuth2ClientCredentialsResult;
    }

    if (grantType === 'refresh_token') {
      if (!form.refresh_token) return reply.status(400).send({ error: 'invalid_request' });
      const token = await sandbox.refreshToken(form.refresh_token);
      if (!token) return reply.status(400).send({ error: 'invalid_grant' });
      return {
        token_type: 'Bearer',
        access_token: token.accessToken,
        expires_in: TOKEN_TTL_SECONDS,
        refresh_token: token.refreshToken,
        scope: token.scopes.join(' '),
      } satisfies RESTPostOAuth2RefreshTokenResult;
    }

    if (!form.code || !form.redirect_uri)
      return reply.status(400).send({ error: 'invalid_request' });
    const grant = await sandbox.redeemCode(form.code, form.redirect_uri);
    if (!grant)
      return reply
        .status(400)
        .send({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    const token = await sandbox.issueToken(grant.userId, grant.scopes);
    const answer = {
      token_type: 'Bearer',
      access_token: token.accessToken,
      expires_in: TOKEN_TTL_SECONDS,
      refresh_token: token.refreshToken,
      scope: grant.scopes.join(' '),
    } satisfies RESTPostOAuth2AccessTokenResult;
    const guild = grant.guildId ? await sandbox.guild(grant.guildId) : null;
    if (!guild) return answer;
    // The bot flow's answer names the server the bot was added to, as Discord's does.
    return {
      ...answer,
      guild: guildJson(guild, await sandbox.roles(guild.id), sandbox.botId),
    } satisfies RESTPostOAuth2AccessTokenWithBotAndGuildsScopeResult;
  });

  /* Gateway */

  // Where the gateway is: this app's own port (sandbox-gateway.ts), as the request reached it.
  routes.get(
    '/v10/gateway',
    { schema: { hide: true } },
    async (req) =>
      ({
        url: gatewayUrl(req.raw),
      }) satisfies APIGatewayInfo,
  );
  routes.get('/v10/gateway/bot', { schema: { hide: true } }, async (req, reply) => {
    if (!isBot(req)) return unauthorized(reply);
    return gateway.botInfo(gatewayUrl(req.raw));
  });

  // A parameter, not a literal path: clients may send `@me` percent-encoded.
  routes.get(
    '/v10/users/:user',
    { schema: { hide: true, params: z.object({ user: z.string().max(30) }) } },
    async (req, reply) => {
      if (req.params.user !== '@me') return error(reply, 404, 10013, 'Unknown User');
      if (isBot(req)) return userJson(sandbox.botUser);
      const bearer = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '');
      const owner = bearer ? await sandbox.tokenOwner(bearer[1]!) : null;
      if (!owner || !owner.scopes.includes('identify')) return unauthorized(reply);
      return userJson(owner.user);
    },
  );

  /* Guilds */

  routes.get(
    '/v10/guilds/:g',
    { schema: { hide: true, params: guildParams } },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      return guildJson(guild, await sandbox.roles(guild.id), sandbox.botId);
    },
  );

  routes.get(
    '/v10/guilds/:g/roles',
    { schema: { hide: true, params: guildParams } },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      return (await sandbox.roles(guild.id)).map((r) => roleJson(r, sandbox.botId));
    },
  );

  routes.get(
    '/v10/guilds/:g/channels',
    { schema: { hide: true, params: guildParams } },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      return (await sandbox.channels(guild.id)).map(channelJson);
    },
  );

  // Creating a channel needs Manage Channels, and the bot may allow or deny in its overwrites only
  // what it holds itself (Discord's rule for anyone without Administrator).
  routes.post(
    '/v10/guilds/:g/channels',
    {
      schema: {
        hide: true,
        params: guildParams,
        body: z.object({
          name: z.string().min(1).max(100),
          type: z.literal(0).default(0),
          topic: z.string().max(1024).nullable().optional(),
          position: z.number().int().min(0).optional(),
          nsfw: z.boolean().optional(),
          permission_overwrites: z
            .array(
              z.object({
                id: snowflake,
                type: z.union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]),
                allow: bitSet,
                deny: bitSet,
              }),
            )
            .max(100)
            .default([]),
        }),
      },
    },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      const name = textChannelName(req.body.name);
      if (!name)
        return reply.status(400).send({
          message: 'Invalid Form Body',
          code: 50035,
          errors: { name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'Invalid name.' }] } },
        });
      const roles = await sandbox.roles(guild.id);
      const overwrites: OverwriteFacts[] = req.body.permission_overwrites.map((o) => ({
        id: o.id,
        type: Number(o.type) === 1 ? 1 : 0,
        allow: o.allow,
        deny: o.deny,
      }));
      for (const o of overwrites) {
        const known =
          o.type === 0
            ? roles.some((r) => r.id === o.id)
            : (await sandbox.member(guild.id, o.id)) !== null;
        if (!known)
          return reply.status(400).send({
            message: 'Invalid Form Body',
            code: 50035,
            errors: {
              permission_overwrites: {
                _errors: [
                  {
                    code: 'INVALID_OVERWRITE',
                    message: `Unknown ${o.type ? 'member' : 'role'} ${o.id}.`,
                  },
                ],
              },
            },
          });
      }
      const standing = await sandbox.botStanding(guild);
      const held = standing?.permissions ?? 0n;
      const asked = overwrites.reduce((n, o) => n | BigInt(o.allow) | BigInt(o.deny), 0n);
      if (
        !hasPermission(held, PermissionFlagsBits.ManageChannels) ||
        (held !== ALL_BITS && (asked & ~held) !== 0n)
      )
        return error(reply, 403, 50013, 'Missing Permissions');
      const channel = await sandbox.createChannel({
        guildId: guild.id,
        name,
        topic: req.body.topic ?? null,
        overwrites,
      });
      return reply.status(201).send(channelJson(channel));
    },
  );

  routes.get(
    '/v10/channels/:c',
    { schema: { hide: true, params: channelParams } },
    async (req, reply) => {
      const found = await botChannel(req, reply, req.params.c);
      if (!found) return reply;
      return channelJson(found.channel);
    },
  );

  // Posting needs View Channel and Send Messages there; embeds without Embed Links are dropped.
  routes.post(
    '/v10/channels/:c/messages',
    {
      schema: {
        hide: true,
        params: channelParams,
        body: z.object({
          content: z.string().max(2000).default(''),
          embeds: z.array(embedSchema).max(10).default([]),
          nonce: z
            .union([z.string().max(25), z.number().int()])
            .transform(String)
            .optional(),
          enforce_nonce: z.boolean().default(false),
          allowed_mentions: z.object({ parse: z.array(z.string()).optional() }).optional(),
          tts: z.boolean().optional(),
        }),
      },
    },
    async (req, reply) => {
      const found = await botChannel(req, reply, req.params.c);
      if (!found) return reply;
      const { content, embeds, nonce, enforce_nonce: enforceNonce } = req.body;
      if (!content.trim() && !embeds.length)
        return error(reply, 400, 50006, 'Cannot send an empty message');
      if (embedLength(embeds) > 6000)
        return reply.status(400).send({
          message: 'Invalid Form Body',
          code: 50035,
          errors: {
            embeds: {
              _errors: [
                {
                  code: 'MAX_EMBED_SIZE_EXCEEDED',
                  message: 'Embed size exceeds maximum size of 6000',
                },
              ],
            },
          },
        });
      if (!hasPermission(found.permissions, PermissionFlagsBits.SendMessages))
        return error(reply, 403, 50013, 'Missing Permissions');
      const kept = hasPermission(found.permissions, PermissionFlagsBits.EmbedLinks) ? embeds : [];
      const { message } = await sandbox.postMessage({
        channelId: found.channel.id,
        authorId: sandbox.botId,
        content,
        embeds: kept.map((e) => ({ type: 'rich', ...e })),
        nonce: nonce ?? null,
        enforceNonce,
      });
      return messageJson(message, sandbox.botUser);
    },
  );

  /* Members */

  routes.get(
    '/v10/guilds/:g/members',
    {
      schema: {
        hide: true,
        params: guildParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(1000).default(1),
          after: snowflake.default('0'),
        }),
      },
    },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      const members = await sandbox.listMembers(guild.id, req.query.after, req.query.limit);
      return members.map(memberJson);
    },
  );

  routes.get(
    '/v10/guilds/:g/members/:u',
    { schema: { hide: true, params: memberParams } },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      const member = await sandbox.member(guild.id, req.params.u);
      return member ? memberJson(member) : error(reply, 404, 10007, 'Unknown Member');
    },
  );

  routes.put(
    '/v10/guilds/:g/members/:u',
    {
      schema: {
        hide: true,
        params: memberParams,
        body: z.object({
          access_token: z.string().min(1),
          roles: z.array(snowflake).max(250).optional(),
          nick: z.string().max(32).optional(),
          mute: z.boolean().optional(),
          deaf: z.boolean().optional(),
        }),
      },
    },
    async (req, reply) => {
      const guild = await botGuild(req, reply, req.params.g);
      if (!guild) return reply;
      const owner = await sandbox.tokenOwner(req.body.access_token);
      if (!owner || owner.user.id !== req.params.u || !owner.scopes.includes('guilds.join'))
        return error(reply, 403, 50025, 'Invalid OAuth2 access token');
      if (await sandbox.member(guild.id, req.params.u)) return reply.status(204).send();
      const standing = await sandbox.botStanding(guild);
      if (
        !standing ||
        !hasPermission(standing.permissions, PermissionFlagsBits.CreateInstantInvite)
      )
        return error(reply, 403, 50013, 'Missing Permissions');
      const roleIds = [...new Set(req.body.roles ?? [])];
      if (roleIds.length) {
        const roles = await sandbox.roles(guild.id);
        for (const id of roleIds) {
          const role = roles.find((r) => r.id === id && r.id !== guild.id);
          if (!role) return error(reply, 404, 10011, 'Unknown Role');
          if (!(await mayAssign(reply, guild, role))) return reply;
        }
      }
      const outcome = await sandbox.addMember(guild.id, req.params.u, roleIds);
      if (outcome === 'already') return reply.status(204).send();
      const member = await sandbox.member(guild.id, req.params.u);
      return reply.status(201).send(memberJson(member!));
    },
  );

  const roleChange =
    (add: boolean) =>
    async (req: FastifyRequest<{ Params: z.infer<typeof roleParams> }>, reply: FastifyReply) => {
      const { g, u, r } = req.params;
      const guild = await botGuild(req, reply, g);
      if (!guild) return reply;
      const role = (await sandbox.roles(guild.id)).find((x) => x.id === r && x.id !== guild.id);
      if (!role) return error(reply, 404, 10011, 'Unknown Role');
      if (!(await sandbox.member(guild.id, u))) return error(reply, 404, 10007, 'Unknown Member');
      if (!(await mayAssign(reply, guild, role))) return reply;
      if (add) await sandbox.addRole(guild.id, u, r);
      else await sandbox.removeRole(guild.id, u, r);
      return reply.status(204).send();
    };
  routes.put(
    '/v10/guilds/:g/members/:u/roles/:r',
    { schema: { hide: true, params: roleParams } },
    roleChange(true),
  );
  routes.delete(
    '/v10/guilds/:g/members/:u/roles/:r',
    { schema: { hide: true, params: roleParams } },
    roleChange(false),
  );

  /* Invites */

  routes.post(
    '/v10/channels/:c/invites',
    {
      schema: {
        hide: true,
        params: channelParams,
        body: z
          .object({
            max_age: z.number().int().min(0).max(604_800).default(86_400),
            max_uses: z.number().int().min(0).max(100).default(0),
            temporary: z.boolean().default(false),
            unique: z.boolean().default(false),
          })
          .default({ max_age: 86_400, max_uses: 0, temporary: false, unique: false }),
      },
    },
    async (req, reply) => {
      if (!isBot(req)) return unauthorized(reply);
      const channel = await sandbox.channel(req.params.c);
      if (!channel) return error(reply, 404, 10003, 'Unknown Channel');
      const guild = await botGuild(req, reply, channel.guildId);
      if (!guild) return reply;
      const standing = await sandbox.botStanding(guild);
      if (
        !standing ||
        !hasPermission(standing.permissions, PermissionFlagsBits.CreateInstantInvite)
      )
        return error(reply, 403, 50013, 'Missing Permissions');
      const invite = await sandbox.createInvite({
        guildId: guild.id,
        channelId: channel.id,
        inviterId: sandbox.botId,
        maxAge: req.body.max_age,
        maxUses: req.body.max_uses,
      });
      return {
        type: 0,
        code: invite.code,
        guild: {
          id: guild.id,
          name: guild.name,
          icon: null,
          splash: null,
          banner: null,
          features: [],
        },
        channel: { id: channel.id, name: channel.name, type: channel.type },
        inviter: userJson(sandbox.botUser),
        max_age: invite.maxAge,
        max_uses: invite.maxUses,
        uses: invite.uses,
        temporary: false,
        created_at: invite.createdAt.toISOString(),
        expires_at: invite.expiresAt ? invite.expiresAt.toISOString() : null,
      };
    },
  );
}

/** The sandbox's test and benchmark controls: request stats, fault injection, limits. Local only. */
export async function sandboxDiscordControls(
  app: FastifyInstance,
  { gateway }: { gateway: SandboxGateway },
): Promise<void> {
  const sandbox = app.deps.discordSandbox!;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', localOnly(app.deps.config));

  routes.get('/sandbox/discord/_stats', { schema: { hide: true } }, async () => ({
    ...sandbox.traffic.stats(),
    limits: sandbox.traffic.rateLimits,
  }));
  routes.delete('/sandbox/discord/_stats', { schema: { hide: true } }, async (_req, reply) => {
    sandbox.traffic.reset();
    return reply.status(204).send();
  });

  routes.get(
    '/sandbox/discord/_requests',
    {
      schema: {
        hide: true,
        querystring: z.object({
          route: z.string().max(200).optional(),
          guildId: snowflake.optional(),
          limit: z.coerce.number().int().min(1).max(20_000).optional(),
        }),
      },
    },
    async (req) => ({
      requests: sandbox.traffic.requests({
        ...(req.query.route ? { route: req.query.route } : {}),
        ...(req.query.guildId ? { guildId: req.query.guildId } : {}),
        ...(req.query.limit ? { limit: req.query.limit } : {}),
      }),
    }),
  );

  routes.post(
    '/sandbox/discord/_faults',
    {
      schema: {
        hide: true,
        body: z.object({
          route: z.string().regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/, 'METHOD /path'),
          status: z.union([z.literal(403), z.literal(429), z.literal(500), z.literal(503)]),
          count: z.number().int().min(1).max(10_000),
          retryAfter: z.number().min(0).max(3600).optional(),
        }),
      },
    },
    async (req, reply) => {
      sandbox.traffic.injectFault(req.body);
      return reply.status(204).send();
    },
  );
  routes.delete('/sandbox/discord/_faults', { schema: { hide: true } }, async (_req, reply) => {
    sandbox.traffic.clearFaults();
    return reply.status(204).send();
  });

  // The gateway: its counters, its heartbeat interval, and cutting every socket as a network would.
  routes.get('/sandbox/discord/_gateway', { schema: { hide: true } }, async () => gateway.stats());
  routes.post(
    '/sandbox/discord/_gateway',
    {
      schema: {
        hide: true,
        body: z.object({
          heartbeatIntervalMs: z.number().int().min(50).max(60_000).optional(),
          cut: z.boolean().optional(),
          /** With `cut`: new connections wait until a `release`. */
          hold: z.boolean().optional(),
          release: z.boolean().optional(),
        }),
      },
    },
    async (req) => {
      if (req.body.heartbeatIntervalMs) gateway.setHeartbeatInterval(req.body.heartbeatIntervalMs);
      if (req.body.cut) gateway.cut({ hold: req.body.hold ?? false });
      if (req.body.release) gateway.release();
      return gateway.stats();
    },
  );

  routes.put(
    '/sandbox/discord/_limits',
    {
      schema: {
        hide: true,
        body: z.object({
          routeLimit: z.number().int().min(1).max(100_000).optional(),
          routeWindowMs: z.number().int().min(1).max(3_600_000).optional(),
          globalPerSecond: z.number().int().min(1).max(100_000).optional(),
        }),
      },
    },
    async (req) => {
      sandbox.traffic.setRateLimits(
        Object.fromEntries(Object.entries(req.body).filter(([, v]) => v !== undefined)),
      );
      return sandbox.traffic.rateLimits;
    },
  );
}
