import { once } from 'node:events';
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayDispatchPayload,
  type GatewayReceivePayload,
} from 'discord-api-types/v10';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { clientCredentials, tokenForm } from '../../../test/discord.ts';
import { useTestApp } from '../../../test/harness.ts';
import { listen, within } from '../../../test/http.ts';
import { seedSandboxGuild, type SandboxDiscord, type SeededGuild } from './sandbox.ts';
import type { GatewayStats } from './sandbox-gateway.ts';

/*
 * The sandbox's gateway, proven with the client production runs (@discordjs/ws's WebSocketManager)
 * over a real socket to the running app, and with a bare `ws` client for what that client never
 * does wrong (a bad token, a forgotten session, missing intents).
 */

const t = useTestApp();
let base: string;
let sandbox: SandboxDiscord;
let guild: SeededGuild;
const API = '/sandbox/discord/api/v10';

beforeAll(async () => {
  base = `http://127.0.0.1:${await listen(t.app)}`;
  sandbox = t.deps.discordSandbox!;
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Gateway Traders',
    roles: ['VIP', 'Member'],
  });
  // Heartbeats every 150 ms, so several happen within the test.
  await gatewayControl({ heartbeatIntervalMs: 150 });
});

async function gatewayControl(body: object): Promise<GatewayStats> {
  const res = await fetch(`${base}/sandbox/discord/_gateway`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as GatewayStats;
}

/** Resolves with the first item `items` gets that matches, checking those it already has. */
function arrival<T>(items: T[], match: (item: T) => boolean, what: string): Promise<T> {
  return within(
    5000,
    what,
    new Promise<T>((resolve) => {
      const look = () => {
        const at = items.findIndex(match);
        if (at >= 0) resolve(items[at]!);
        else setTimeout(look, 10);
      };
      look();
    }),
  );
}

/** A new member of the guild holding `roles`, as the API's join adds them. */
async function member(username: string, roles: string[]) {
  const user = (await sandbox.ensureUser(username))!;
  await sandbox.addMember(guild.guildId, user.id, roles);
  return user;
}

/** A bare gateway client: every payload and the close code. */
class RawClient {
  readonly received: GatewayReceivePayload[] = [];
  closeCode: number | null = null;
  readonly ws: WebSocket;
  readonly closed: Promise<number>;

  constructor(query = '?v=10&encoding=json') {
    this.ws = new WebSocket(`${base.replace('http', 'ws')}/sandbox/discord/gateway${query}`);
    this.ws.on('message', (data: Buffer) =>
      this.received.push(JSON.parse(data.toString()) as GatewayReceivePayload),
    );
    this.closed = once(this.ws, 'close').then(([code]) => (this.closeCode = code as number));
  }

  send(payload: object) {
    this.ws.send(JSON.stringify(payload));
  }

  next(op: GatewayOpcodes, t?: GatewayDispatchEvents) {
    return arrival(this.received, (p) => p.op === op && (!t || p.t === t), `op ${op} ${t ?? ''}`);
  }

  identify(token: string, intents: number) {
    this.send({
      op: GatewayOpcodes.Identify,
      d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' } },
    });
  }
}

describe('GET /gateway/bot', () => {
  it('names the gateway on this port, one shard and the session budget, for the bot only', async () => {
    expect((await t.app.inject({ url: `${API}/gateway/bot` })).statusCode).toBe(401);
    const res = await fetch(`${base}${API}/gateway/bot`, {
      headers: { authorization: `Bot ${t.config.DISCORD_BOT_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      url: `${base.replace('http', 'ws')}/sandbox/discord/gateway`,
      shards: 1,
      session_start_limit: { total: 1000, max_concurrency: 1 },
    });
    const open = await fetch(`${base}${API}/gateway`);
    expect(await open.json()).toEqual({ url: body.url });
  });
});

describe('the gateway with @discordjs/ws', () => {
  it('identifies, heartbeats, resumes after a cut with what it missed, and hears a role removed by hand', async () => {
    const rest = new REST({ api: `${base}/sandbox/discord/api` }).setToken(
      t.config.DISCORD_BOT_TOKEN,
    );
    const manager = new WebSocketManager({
      token: t.config.DISCORD_BOT_TOKEN,
      intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers,
      rest,
    });
    const dispatches: GatewayDispatchPayload[] = [];
    const heartbeats: number[] = [];
    let resumed = 0;
    manager.on(WebSocketShardEvents.Dispatch, (payload) => dispatches.push(payload));
    manager.on(WebSocketShardEvents.HeartbeatComplete, ({ latency }) => heartbeats.push(latency));
    manager.on(WebSocketShardEvents.Resumed, () => (resumed += 1));
    const before = await gatewayControl({});
    try {
      await within(10_000, 'connect', manager.connect());
      const ready = await arrival(dispatches, (p) => p.t === GatewayDispatchEvents.Ready, 'READY');
      if (ready.t !== GatewayDispatchEvents.Ready) throw new Error('not READY');
      expect(ready.d.user.id).toBe(sandbox.botId);
      expect(ready.d.resume_gateway_url).toBe(
        `${base.replace('http', 'ws')}/sandbox/discord/gateway`,
      );
      expect(ready.d.guilds).toContainEqual({ id: guild.guildId, unavailable: true });
      const created = await arrival(
        dispatches,
        (p) => p.t === GatewayDispatchEvents.GuildCreate && p.d.id === guild.guildId,
        'GUILD_CREATE',
      );
      if (created.t !== GatewayDispatchEvents.GuildCreate) throw new Error('not GUILD_CREATE');
      expect(created.d.roles.map((r) => r.name)).toEqual(
        expect.arrayContaining(['VIP', 'Member', 'Tradeshelf']),
      );
      expect(created.d.members.map((m) => m.user.id)).toEqual([sandbox.botId]);

      await arrival(heartbeats, () => heartbeats.length >= 2, 'two heartbeats acknowledged');

      const ada = await member('gateway_ada', [guild.roleIds.VIP!, guild.roleIds.Member!]);
      const added = await arrival(
        dispatches,
        (p) => p.t === GatewayDispatchEvents.GuildMemberAdd && p.d.user.id === ada.id,
        'GUILD_MEMBER_ADD',
      );
      expect(added.d).toMatchObject({ guild_id: guild.guildId });

      // The network drops; while the client is away a role is removed by hand on the server page.
      await gatewayControl({ cut: true, hold: true });
      const page = await fetch(
        `${base}/sandbox/discord/servers/${guild.guildId}/members/${ada.id}/roles/${guild.roleIds.VIP}/remove`,
        {
          method: 'POST',
          body: new URLSearchParams(),
          redirect: 'manual',
          headers: { origin: base },
        },
      );
      expect(page.status).toBe(303);
      const missed = dispatches.length;
      await gatewayControl({ release: true });

      const update = await arrival(
        dispatches,
        (p) => p.t === GatewayDispatchEvents.GuildMemberUpdate && p.d.user.id === ada.id,
        'GUILD_MEMBER_UPDATE after the resume',
      );
      if (update.t !== GatewayDispatchEvents.GuildMemberUpdate) throw new Error('not an update');
      expect(update.d.guild_id).toBe(guild.guildId);
      expect(update.d.roles).toEqual([guild.roleIds.Member]);
      expect(dispatches.indexOf(update)).toBeGreaterThanOrEqual(missed);
      await arrival([resumed], () => resumed === 1, 'RESUMED');
      // Resumed, not identified again: the missed dispatch was replayed from the session.
      const after = await gatewayControl({});
      expect(after.identifies - before.identifies).toBe(1);
      expect(after.resumes - before.resumes).toBe(1);
      expect(after.replayed - before.replayed).toBe(1);
      // Sequence numbers run on without a gap across the cut.
      const seqs = dispatches.map((p) => p.s);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    } finally {
      await manager.destroy();
    }
  });
});

describe('the gateway refuses as Discord does', () => {
  it('closes 4004 on a bad token, and 4003 on a command before identifying', async () => {
    const bad = new RawClient();
    const hello = await bad.next(GatewayOpcodes.Hello);
    expect(hello.d).toEqual({ heartbeat_interval: 150 });
    bad.identify('not-the-token', GatewayIntentBits.Guilds);
    expect(await within(5000, 'close', bad.closed)).toBe(GatewayCloseCodes.AuthenticationFailed);

    const early = new RawClient();
    await early.next(GatewayOpcodes.Hello);
    early.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guild.guildId } });
    expect(await within(5000, 'close', early.closed)).toBe(GatewayCloseCodes.NotAuthenticated);

    const garbled = new RawClient();
    await garbled.next(GatewayOpcodes.Hello);
    garbled.ws.send('{not json');
    expect(await within(5000, 'close', garbled.closed)).toBe(GatewayCloseCodes.DecodeError);

    const old = new RawClient('?v=6&encoding=json');
    expect(await within(5000, 'close', old.closed)).toBe(GatewayCloseCodes.InvalidAPIVersion);
  });

  it('answers a resume of an unknown session with INVALID_SESSION, not resumable', async () => {
    const client = new RawClient();
    await client.next(GatewayOpcodes.Hello);
    client.send({
      op: GatewayOpcodes.Resume,
      d: { token: t.config.DISCORD_BOT_TOKEN, session_id: 'f'.repeat(32), seq: 3 },
    });
    expect((await client.next(GatewayOpcodes.InvalidSession)).d).toBe(false);
    client.ws.close();
  });

  it('sends member events only to sessions that asked for GUILD_MEMBERS', async () => {
    const both = new RawClient();
    const guildsOnly = new RawClient();
    await Promise.all([both.next(GatewayOpcodes.Hello), guildsOnly.next(GatewayOpcodes.Hello)]);
    both.identify(
      t.config.DISCORD_BOT_TOKEN,
      GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers,
    );
    guildsOnly.identify(t.config.DISCORD_BOT_TOKEN, GatewayIntentBits.Guilds);
    await Promise.all([
      both.next(GatewayOpcodes.Dispatch, GatewayDispatchEvents.Ready),
      guildsOnly.next(GatewayOpcodes.Dispatch, GatewayDispatchEvents.Ready),
    ]);
    const bo = await member('gateway_bo', [guild.roleIds.Member!]);
    await sandbox.kick(guild.guildId, bo.id);
    const removed = await both.next(
      GatewayOpcodes.Dispatch,
      GatewayDispatchEvents.GuildMemberRemove,
    );
    expect(removed.d).toMatchObject({ guild_id: guild.guildId, user: { id: bo.id } });
    // Both sessions heard everything up to the kick at once; only one was told of members.
    expect(guildsOnly.received.filter((p) => String(p.t).startsWith('GUILD_MEMBER'))).toEqual([]);
    // Once identified, a second IDENTIFY is refused.
    both.identify(t.config.DISCORD_BOT_TOKEN, GatewayIntentBits.Guilds);
    expect(await within(5000, 'close', both.closed)).toBe(GatewayCloseCodes.AlreadyAuthenticated);
    guildsOnly.ws.close();
  });
});

describe('POST /oauth2/token', () => {
  const client = () => clientCredentials(t);
  const form = (fields: Record<string, string>) => tokenForm(t, fields);

  it('takes a form only: a JSON body has no grant type', async () => {
    const user = (await sandbox.ensureUser('token_json'))!;
    const code = await sandbox.createCode({
      userId: user.id,
      redirectUri: 'http://localhost/cb',
      scopes: ['identify'],
      guildId: null,
    });
    const json = await t.app.inject({
      method: 'POST',
      url: `${API}/oauth2/token`,
      payload: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://localhost/cb',
        ...client(),
      },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Grant type None is not supported',
    });
    // The code was not spent by the refused request.
    const ok = await form({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://localhost/cb',
      ...client(),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      token_type: 'Bearer',
      access_token: expect.any(String),
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: 'identify',
    });
  });

  it('refreshes once: new tokens with the same scopes, the old refresh token spent', async () => {
    const user = (await sandbox.ensureUser('token_refresh'))!;
    const code = await sandbox.createCode({
      userId: user.id,
      redirectUri: 'http://localhost/cb',
      scopes: ['identify', 'guilds.join'],
      guildId: null,
    });
    const first = (
      await form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://localhost/cb',
        ...client(),
      })
    ).json() as { access_token: string; refresh_token: string };
    const refreshed = await form({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      ...client(),
    });
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json() as {
      access_token: string;
      refresh_token: string;
      scope: string;
    };
    expect(second.scope).toBe('identify guilds.join');
    expect(second.access_token).not.toBe(first.access_token);
    expect((await sandbox.tokenOwner(second.access_token))?.user.id).toBe(user.id);
    expect(await sandbox.tokenOwner(first.access_token)).toBeNull();
    const again = await form({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      ...client(),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant' });
    // Another application's secret is refused before anything is read.
    const wrong = await form({
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token,
      client_id: t.config.DISCORD_CLIENT_ID,
      client_secret: 'not-it',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'invalid_client' });
  });

  it('gives the owner a client-credentials token without a refresh token', async () => {
    const basic = Buffer.from(
      `${t.config.DISCORD_CLIENT_ID}:${t.config.DISCORD_CLIENT_SECRET}`,
    ).toString('base64');
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/oauth2/token`,
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'identify',
      }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic}`,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      token_type: 'Bearer',
      access_token: expect.any(String),
      expires_in: 604800,
      scope: 'identify',
    });
    const scope = await form({
      grant_type: 'client_credentials',
      scope: 'guilds.join',
      ...client(),
    });
    expect(scope.statusCode).toBe(400);
    expect(scope.json()).toEqual({ error: 'invalid_scope' });
  });
});
