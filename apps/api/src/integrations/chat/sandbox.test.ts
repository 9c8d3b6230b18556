import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clientCredentials, tokenForm } from '../../../test/discord.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  seedSandboxGuild,
  seedSandboxMembers,
  type SandboxChange,
  type SandboxDiscord,
  type SeededGuild,
} from './sandbox.ts';

/*
 * The Discord sandbox's own behaviour through HTTP (app.inject): Discord's error bodies and rate
 * limits, the local controls, the pages and their forms, and its gating by configuration.
 */

const t = useTestApp();
let sandbox: SandboxDiscord;
let guild: SeededGuild;
/** The sandbox's changes as its gateway hears them, by kind, member and roles. */
const events: Array<{ type: string; guildId: string; userId: string; roleIds?: string[] }> = [];
const record = (c: SandboxChange) => {
  if (c.type === 'member.remove')
    events.push({ type: c.type, guildId: c.guildId, userId: c.user.id });
  else if (c.type !== 'guild.join')
    events.push({
      type: c.type,
      guildId: c.guildId,
      userId: c.member.userId,
      roleIds: c.member.roleIds,
    });
};
const API = '/sandbox/discord/api/v10';
const ORIGIN = 'http://localhost';
/** An invite to the seeded guild's channel, good for one join within a minute. */
const oneUseInvite = (g: SeededGuild) =>
  sandbox.createInvite({
    guildId: g.guildId,
    channelId: g.channelId,
    inviterId: null,
    maxAge: 60,
    maxUses: 1,
  });

beforeAll(async () => {
  sandbox = t.deps.discordSandbox!;
  sandbox.onChange(record);
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Sandbox Pages',
    roles: ['VIP', 'Member'],
    managedRoles: ['Nitro Booster'],
    ownerUsername: 'pages_owner',
  });
});

const bot = () => ({ authorization: `Bot ${t.config.DISCORD_BOT_TOKEN}` });
const api = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: bot(),
    ...(payload ? { payload } : {}),
  });
const setLimits = (limits: object) =>
  t.app.inject({ method: 'PUT', url: '/sandbox/discord/_limits', payload: limits });
const DEFAULT_LIMITS = { routeLimit: 10, routeWindowMs: 1000, globalPerSecond: 50 };

/** A form post from the sandbox's own pages. */
const submit = (
  url: string,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
  });

/** Redeems a code at the token endpoint, as the app's adapter does. */
const exchange = (code: string, redirectUri: string) =>
  t.app.inject({
    method: 'POST',
    url: `${API}/oauth2/token`,
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: t.config.DISCORD_CLIENT_ID,
      client_secret: t.config.DISCORD_CLIENT_SECRET,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

async function signIn(username: string): Promise<string> {
  const res = await submit('/sandbox/discord/session', { username, return: '/sandbox/discord' });
  expect(res.statusCode).toBe(303);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  expect(cookie).toMatch(/^sandbox_discord_user=\d+$/);
  return cookie;
}

/** A user in the seeded guild with `roles`, added the way the sandbox adds anyone. */
async function member(username: string, roles: string[] = []) {
  const user = (await sandbox.ensureUser(username))!;
  await sandbox.addMember(guild.guildId, user.id, roles);
  return user;
}

/** The page's nonce: in the CSP header, on its one `<style>`, and nowhere else; every field labelled. */
function checkPage(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(csp).not.toContain('unsafe-inline');
  expect(res.body).toContain(`<style nonce="${nonce}">`);
  expect(res.body).not.toMatch(/<script/);
  const ids = [
    ...res.body.matchAll(/<(?:input|select)\b(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g),
  ].map((m) => m[1]!);
  const unlabelled = [
    ...res.body.matchAll(/<(input|select)\b(?![^>]*type="hidden")[^>]*>/g),
  ].filter((m) => !/\bid="/.test(m[0]));
  expect(unlabelled.map((m) => m[0])).toEqual([]);
  for (const id of ids)
    expect(res.body, `label for ${id}`).toMatch(new RegExp(`<label[^>]* for="${id}"`));
  for (const form of res.body.matchAll(/<form method="post"[^>]*>[\s\S]*?<\/form>/g))
    expect(form[0]).toMatch(/<button type="submit"/);
}

describe('the REST subset answers as Discord does', () => {
  it('checks the bot token and answers unknown things with Discord’s codes', async () => {
    const none = await t.app.inject({ url: `${API}/guilds/${guild.guildId}` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    const wrong = await t.app.inject({
      url: `${API}/guilds/${guild.guildId}`,
      headers: { authorization: 'Bot not-the-token' },
    });
    expect(wrong.statusCode).toBe(401);

    expect((await api('GET', '/guilds/1000000000000000001')).json()).toEqual({
      message: 'Unknown Guild',
      code: 10004,
    });
    const unknownMember = await api('GET', `/guilds/${guild.guildId}/members/1000000000000000002`);
    expect(unknownMember.statusCode).toBe(404);
    expect(unknownMember.json()).toEqual({ message: 'Unknown Member', code: 10007 });
    const malformed = await api('GET', `/guilds/${guild.guildId}/members/abc`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: 'Invalid Form Body', code: 50035 });
    const nowhere = await api('GET', '/no/such/route');
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('refuses roles the bot may not manage with 403 Missing Permissions', async () => {
    const user = await member('api_quinn');
    const role = (r: string) => `/guilds/${guild.guildId}/members/${user.id}/roles/${r}`;
    const missing = { message: 'Missing Permissions', code: 50013 };

    const managed = await api('PUT', role(guild.roleIds['Nitro Booster']!));
    expect(managed.statusCode).toBe(403);
    expect(managed.json()).toEqual(missing);
    expect((await api('PUT', role(guild.botRoleId))).statusCode).toBe(403);
    expect((await api('PUT', role('1000000000000000003'))).json()).toEqual({
      message: 'Unknown Role',
      code: 10011,
    });

    await sandbox.moveBotRole(guild.guildId, guild.roleIds.VIP!);
    expect((await api('PUT', role(guild.roleIds.VIP!))).json()).toEqual(missing);
    expect((await api('PUT', role(guild.roleIds.Member!))).statusCode).toBe(204);
    await sandbox.moveBotRole(guild.guildId, null);

    await sandbox.setBotManageRoles(guild.guildId, false);
    expect((await api('DELETE', role(guild.roleIds.Member!))).json()).toEqual(missing);
    await sandbox.setBotManageRoles(guild.guildId, true);
    expect((await api('DELETE', role(guild.roleIds.Member!))).statusCode).toBe(204);
  });

  it('guards the token endpoint: client credentials, single-use codes', async () => {
    const form = (fields: Record<string, string>) => tokenForm(t, fields);
    const client = clientCredentials(t);
    expect(
      (await form({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'x' })).json(),
    ).toEqual({
      error: 'invalid_client',
    });
    const bad = await form({
      ...client,
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'http://localhost/cb',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('rate limits', () => {
  it('counts each route bucket in X-RateLimit-* headers and answers 429 with retry_after', async () => {
    await setLimits({ routeLimit: 2, routeWindowMs: 1000 });
    // Every request falls in the same window whatever the machine's load: the clock stands still
    // (three requests on the embedded database once took over the 1 s window).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const url = `/guilds/${guild.guildId}/roles`;
      const first = await api('GET', url);
      const second = await api('GET', url);
      const third = await api('GET', url);
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      expect(second.headers['x-ratelimit-remaining']).toBe('0');
      expect(first.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{16}$/);
      expect(second.headers['x-ratelimit-bucket']).toBe(first.headers['x-ratelimit-bucket']);
      expect(Number(first.headers['x-ratelimit-reset-after'])).toBeGreaterThan(0);
      expect(third.statusCode).toBe(429);
      const body = third.json() as { message: string; retry_after: number; global: boolean };
      expect(body.message).toBe('You are being rate limited.');
      expect(body.global).toBe(false);
      expect(body.retry_after).toBeGreaterThan(0);
      expect(body.retry_after).toBeLessThanOrEqual(1);
      expect(third.headers['retry-after']).toBe('1');
      expect(third.headers['x-ratelimit-scope']).toBe('user');

      // Another guild is another bucket (its major parameter), another route another bucket.
      const other = await seedSandboxGuild(t.database.db, { name: 'Second Bucket', roles: [] });
      expect((await api('GET', `/guilds/${other.guildId}/roles`)).statusCode).toBe(200);
      const channels = await api('GET', `/guilds/${guild.guildId}/channels`);
      expect(channels.statusCode).toBe(200);
      expect(channels.headers['x-ratelimit-bucket']).not.toBe(first.headers['x-ratelimit-bucket']);

      await setLimits({ routeLimit: 100, globalPerSecond: 2 });
      await api('GET', `/guilds/${guild.guildId}`);
      await api('GET', `/guilds/${guild.guildId}/channels`);
      const global = await api('GET', `/guilds/${other.guildId}`);
      expect(global.statusCode).toBe(429);
      expect(global.json()).toMatchObject({ global: true });
      expect(global.headers['x-ratelimit-global']).toBe('true');
      expect(global.headers['x-ratelimit-scope']).toBe('global');
    } finally {
      vi.useRealTimers();
      await setLimits(DEFAULT_LIMITS);
    }
  });

  it('keeps stats of every request for benchmarks, and resets them', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/sandbox/discord/_stats' })).statusCode,
    ).toBe(204);
    // The five arrive within one second whatever the machine's load: the clock stands still.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      for (let i = 0; i < 4; i++) await api('GET', `/guilds/${guild.guildId}/channels`);
      await t.app.inject({ url: `${API}/guilds/${guild.guildId}` });
    } finally {
      vi.useRealTimers();
    }
    const stats = (await t.app.inject({ url: '/sandbox/discord/_stats' })).json();
    expect(stats).toMatchObject({
      requests: 5,
      peakPerSecond: 5,
      rateLimited: 0,
      routes: { 'GET /guilds/:/channels': 4, 'GET /guilds/:': 1 },
      limits: DEFAULT_LIMITS,
    });
    const log = (
      await t.app.inject({ url: '/sandbox/discord/_requests?route=GET /guilds/:g/channels' })
    ).json() as {
      requests: Array<{ at: number; status: number; route: string; guildId: string }>;
    };
    expect(log.requests.slice(-4).map((r) => [r.status, r.route, r.guildId])).toEqual(
      Array(4).fill([200, '/guilds/:g/channels', guild.guildId]),
    );
  });

  it('fails the next matching requests as injected, and only from this machine', async () => {
    const outside = { remoteAddress: '10.9.8.7' };
    const fault = { route: 'GET /guilds/:g/channels', status: 500, count: 2 };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/sandbox/discord/_faults',
          payload: fault,
          ...outside,
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/sandbox/discord/_stats', ...outside })).statusCode).toBe(
      404,
    );
    expect((await api('GET', `/guilds/${guild.guildId}/channels`)).statusCode).toBe(200);

    expect(
      (await t.app.inject({ method: 'POST', url: '/sandbox/discord/_faults', payload: fault }))
        .statusCode,
    ).toBe(204);
    const failed = await api('GET', `/guilds/${guild.guildId}/channels`);
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ message: '500: Internal Server Error', code: 0 });
    expect((await api('GET', `/guilds/${guild.guildId}/channels`)).statusCode).toBe(500);
    expect((await api('GET', `/guilds/${guild.guildId}/channels`)).statusCode).toBe(200);

    await t.app.inject({
      method: 'POST',
      url: '/sandbox/discord/_faults',
      payload: { route: 'GET /guilds/:id/roles', status: 429, count: 1, retryAfter: 2.5 },
    });
    const limited = await api('GET', `/guilds/${guild.guildId}/roles`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 2.5,
      global: false,
    });
    expect(limited.headers['retry-after']).toBe('3');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/sandbox/discord/_faults',
      payload: { route: 'anything', status: 418, count: 1 },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('lists ten thousand members a thousand at a time along the primary key', async () => {
    const big = await seedSandboxGuild(t.database.db, { name: 'Ten Thousand', roles: ['Holder'] });
    await seedSandboxMembers(t.database.db, big.guildId, 10_000, {
      roleIds: [big.roleIds.Holder!],
    });
    await t.database.db.execute(sql`analyze sandbox_discord_members`);
    const plan = await t.database.db.execute(sql`
      explain select m.user_id from sandbox_discord_members m
      where m.guild_id = ${big.guildId}::bigint and m.user_id > 0 order by m.user_id limit 1000`);
    const text = plan.rows.map((r) => Object.values(r).join('')).join('\n');
    // An index gives the order: no sort of the guild's members, no scan of the table.
    expect(text, text).toMatch(/Index (Only )?Scan using sandbox_discord_members_/);
    expect(text, text).not.toMatch(/Sort|Seq Scan/);

    await setLimits({ routeLimit: 100 });
    try {
      let after = '0';
      let total = 0;
      for (let page = 0; page < 11; page++) {
        const res = await api('GET', `/guilds/${big.guildId}/members?limit=1000&after=${after}`);
        expect(res.statusCode).toBe(200);
        const members = res.json() as Array<{ user: { id: string }; roles: string[] }>;
        total += members.length;
        if (members.length < 1000) break;
        after = members.at(-1)!.user.id;
      }
      expect(total).toBe(10_002);
    } finally {
      await setLimits(DEFAULT_LIMITS);
    }
  });
});

describe('pages', () => {
  it('renders every page with its own nonce and labelled fields', async () => {
    const cookie = await signIn('pages_owner');
    checkPage(await t.app.inject({ url: '/sandbox/discord', headers: { cookie } }));
    checkPage(await t.app.inject({ url: '/sandbox/discord' }));
    const server = await t.app.inject({
      url: `/sandbox/discord/servers/${guild.guildId}`,
      headers: { cookie },
    });
    checkPage(server);
    expect(server.body).toContain('Nitro Booster');
    const q = new URLSearchParams({
      client_id: t.config.DISCORD_CLIENT_ID,
      redirect_uri: 'http://localhost/discord-auth-callback',
      response_type: 'code',
      scope: 'identify guilds.join',
      state: 'abc',
    });
    const authorize = await t.app.inject({ url: `/sandbox/discord/oauth2/authorize?${q}` });
    checkPage(authorize);
    expect(authorize.body).toContain('Join servers for you');
    q.set('scope', 'bot');
    const install = await t.app.inject({
      url: `/sandbox/discord/oauth2/authorize?${q}`,
      headers: { cookie },
    });
    checkPage(install);
    expect(install.body).toContain('Sandbox Pages');
    const invite = await oneUseInvite(guild);
    checkPage(await t.app.inject({ url: `/sandbox/discord/invite/${invite.code}` }));
    expect((await t.app.inject({ url: '/sandbox/discord/invite/nosuchcode' })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ url: '/sandbox/discord/servers/1000000000000000009' })).statusCode,
    ).toBe(404);
  });

  it('keeps the server pages to this machine; authorising and joining stay open (issue 26)', async () => {
    const outside = { remoteAddress: '203.0.113.9' };
    const vic = await member('hand_vic', [guild.roleIds.Member!]);
    const server = `/sandbox/discord/servers/${guild.guildId}`;
    const standing = async () =>
      (await sandbox.botStanding((await sandbox.guild(guild.guildId))!))!.permissions &
      PermissionFlagsBits.ManageRoles;
    expect(await standing()).toBe(PermissionFlagsBits.ManageRoles);
    const reads = [
      { method: 'GET' as const, url: '/sandbox/discord' },
      { method: 'GET' as const, url: server },
    ];
    const forms = [
      `${server}/bot/manage-roles`,
      `${server}/bot/position`,
      `${server}/members/${vic.id}/kick`,
      `${server}/members/${vic.id}/roles/${guild.roleIds.Member}/remove`,
      `${server}/members/${vic.id}/roles`,
      '/sandbox/discord/servers',
    ];
    for (const read of reads) {
      const res = await t.app.inject({ ...read, ...outside });
      expect(res.statusCode, read.url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    for (const url of forms) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: new URLSearchParams({
          on: 'false',
          below: guild.roleIds.Member!,
          name: 'X',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        ...outside,
      });
      expect(res.statusCode, url).toBe(404);
    }
    // Nothing changed: the bot keeps Manage Roles, the member their role.
    expect(await standing()).toBe(PermissionFlagsBits.ManageRoles);
    expect((await sandbox.member(guild.guildId, vic.id))!.roleIds).toEqual([guild.roleIds.Member]);
    expect((await sandbox.roles(guild.guildId))[0]!.id).toBe(guild.botRoleId);

    // What a person does on Discord's own site is reachable from anywhere, as there.
    const q = new URLSearchParams({
      client_id: t.config.DISCORD_CLIENT_ID,
      redirect_uri: 'http://localhost/discord-auth-callback',
      response_type: 'code',
      scope: 'identify',
      state: 'out',
    });
    const authorize = await t.app.inject({
      url: `/sandbox/discord/oauth2/authorize?${q}`,
      ...outside,
    });
    expect(authorize.statusCode).toBe(200);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/sandbox/discord/session',
      payload: new URLSearchParams({ username: 'hand_vic', return: '/sandbox/discord' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      ...outside,
    });
    expect(signIn.statusCode).toBe(303);
    const invite = await oneUseInvite(guild);
    expect(
      (await t.app.inject({ url: `/sandbox/discord/invite/${invite.code}`, ...outside }))
        .statusCode,
    ).toBe(200);
    // From this machine the server pages answer.
    expect((await t.app.inject({ url: server })).statusCode).toBe(200);
  });

  it('kicks, removes and adds roles by hand, and each change is a member event', async () => {
    const rae = await member('hand_rae', [guild.roleIds.VIP!, guild.roleIds.Member!]);
    const at = events.length;
    const page = `/sandbox/discord/servers/${guild.guildId}/members/${rae.id}`;
    const removed = await submit(`${page}/roles/${guild.roleIds.VIP}/remove`);
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(`/sandbox/discord/servers/${guild.guildId}`);
    expect((await sandbox.member(guild.guildId, rae.id))!.roleIds).toEqual([guild.roleIds.Member]);
    expect((await submit(`${page}/roles`, { role: guild.roleIds.VIP! })).statusCode).toBe(303);
    // A managed role cannot be given by hand either.
    await submit(`${page}/roles`, { role: guild.roleIds['Nitro Booster']! });
    expect((await submit(`${page}/kick`)).statusCode).toBe(303);
    expect(await sandbox.member(guild.guildId, rae.id)).toBeNull();
    const sorted = [guild.roleIds.VIP!, guild.roleIds.Member!].sort();
    expect(events.slice(at)).toEqual([
      {
        type: 'member.update',
        guildId: guild.guildId,
        userId: rae.id,
        roleIds: [guild.roleIds.Member],
      },
      { type: 'member.update', guildId: guild.guildId, userId: rae.id, roleIds: sorted },
      { type: 'member.remove', guildId: guild.guildId, userId: rae.id },
    ]);
  });

  it('refuses forms posted from another site', async () => {
    const sam = await member('hand_sam', [guild.roleIds.Member!]);
    const kick = `/sandbox/discord/servers/${guild.guildId}/members/${sam.id}/kick`;
    const crossSite = await submit(kick, {}, { origin: 'https://evil.test' });
    expect(crossSite.statusCode).toBe(403);
    const noOrigin = await t.app.inject({
      method: 'POST',
      url: kick,
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(await sandbox.member(guild.guildId, sam.id)).not.toBeNull();
    const fetchSameSite = await t.app.inject({
      method: 'POST',
      url: kick,
      payload: '',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(fetchSameSite.statusCode).toBe(303);
    expect(await sandbox.member(guild.guildId, sam.id)).toBeNull();
  });

  it('switches the bot’s Manage Roles and moves its role to reproduce the hierarchy problem', async () => {
    const base = `/sandbox/discord/servers/${guild.guildId}/bot`;
    const standing = async () =>
      (await sandbox.botStanding((await sandbox.guild(guild.guildId))!))!;
    expect((await submit(`${base}/manage-roles`, { on: 'false' })).statusCode).toBe(303);
    expect((await standing()).permissions & PermissionFlagsBits.ManageRoles).toBe(0n);
    await submit(`${base}/manage-roles`, { on: 'true' });
    expect((await standing()).permissions & PermissionFlagsBits.ManageRoles).toBe(
      PermissionFlagsBits.ManageRoles,
    );

    await submit(`${base}/position`, { below: guild.roleIds.VIP! });
    const roles = await sandbox.roles(guild.guildId);
    const pos = (id: string) => roles.find((r) => r.id === id)!.position;
    expect(pos(guild.botRoleId)).toBeLessThan(pos(guild.roleIds.VIP!));
    expect(pos(guild.botRoleId)).toBeGreaterThan(pos(guild.roleIds.Member!));
    await submit(`${base}/position`, { below: 'top' });
    const after = await sandbox.roles(guild.guildId);
    expect(after[0]!.id).toBe(guild.botRoleId);
  });

  it('adds the bot to a server the signed-in person creates, with the permissions they leave ticked', async () => {
    const cookie = await signIn('vendor_uma');
    const created = await submit(
      '/sandbox/discord/servers',
      { name: 'Uma Signals', roles: 'Gold, Silver' },
      { cookie },
    );
    expect(created.statusCode).toBe(303);
    const guildId = /\/servers\/(\d+)$/.exec(String(created.headers.location))![1]!;
    expect(await sandbox.member(guildId, sandbox.botId)).toBeNull();

    const redirect = 'http://localhost/vendor/discord/bot';
    const install = new URL(
      t.deps.chat.installUrl({ state: 'inst-1', redirectUri: redirect }),
      'http://localhost',
    );
    const fields = Object.fromEntries(install.searchParams);
    const granted = await t.app.inject({
      method: 'POST',
      url: '/sandbox/discord/oauth2/authorize',
      payload: `${new URLSearchParams({ ...fields, guild_id: guildId, decision: 'authorize' })}&perm=${PermissionFlagsBits.CreateInstantInvite}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
    });
    expect(granted.statusCode).toBe(303);
    const back = new URL(String(granted.headers.location));
    expect(back.searchParams.get('state')).toBe('inst-1');
    expect(back.searchParams.get('guild_id')).toBe(guildId);
    // Manage Roles left unticked: the bot is in, without it.
    expect(back.searchParams.get('permissions')).toBe(
      String(PermissionFlagsBits.CreateInstantInvite),
    );
    const standing = (await sandbox.botStanding((await sandbox.guild(guildId))!))!;
    expect(standing.permissions & PermissionFlagsBits.ManageRoles).toBe(0n);
    const roles = await sandbox.roles(guildId);
    expect(roles[0]).toMatchObject({ name: 'Tradeshelf', managed: true });
    expect(roles.map((r) => r.name)).toEqual(['Tradeshelf', 'Gold', 'Silver', '@everyone']);

    const token = await exchange(back.searchParams.get('code')!, redirect);
    expect(token.statusCode).toBe(200);
    // Discord's answer for the bot flow names the server (an APIGuild), which is what the app keeps.
    expect(token.json()).toMatchObject({
      scope: 'bot',
      guild: {
        id: guildId,
        name: 'Uma Signals',
        icon: null,
        owner_id: (await sandbox.guild(guildId))!.ownerId,
        roles: expect.arrayContaining([expect.objectContaining({ name: 'Gold', managed: false })]),
      },
    });

    // Someone else's server is not on offer, nor accepted.
    const stranger = await signIn('stranger_vic');
    const refused = await submit(
      '/sandbox/discord/oauth2/authorize',
      { ...fields, guild_id: guild.guildId, decision: 'authorize' },
      { cookie: stranger },
    );
    expect(refused.statusCode).toBe(400);
  });

  it('checks the app and the redirect, and skips the page for a repeat grant with prompt=none', async () => {
    const q = (over: Record<string, string>) =>
      `/sandbox/discord/oauth2/authorize?${new URLSearchParams({
        client_id: t.config.DISCORD_CLIENT_ID,
        redirect_uri: 'http://localhost/discord-auth-callback',
        response_type: 'code',
        scope: 'identify',
        state: 's',
        ...over,
      })}`;
    expect((await t.app.inject({ url: q({ client_id: '999999999999999999' }) })).statusCode).toBe(
      400,
    );
    expect(
      (await t.app.inject({ url: q({ redirect_uri: 'https://evil.test/cb' }) })).statusCode,
    ).toBe(400);
    const scope = await t.app.inject({ url: q({ scope: 'identify admin' }) });
    expect(scope.statusCode).toBe(303);
    expect(new URL(String(scope.headers.location)).searchParams.get('error')).toBe('invalid_scope');

    const form = Object.fromEntries(
      new URL(q({ prompt: 'none' }), 'http://localhost').searchParams,
    );
    const first = await submit('/sandbox/discord/oauth2/authorize', {
      ...form,
      username: 'repeat_wes',
      decision: 'authorize',
    });
    const code = new URL(String(first.headers.location)).searchParams.get('code')!;
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect((await exchange(code, 'http://localhost/discord-auth-callback')).statusCode).toBe(200);
    const again = await t.app.inject({ url: q({ prompt: 'none' }), headers: { cookie } });
    expect(again.statusCode).toBe(303);
    expect(new URL(String(again.headers.location)).searchParams.get('code')).toBeTruthy();
  });
});

describe('configuration', () => {
  const dir = () => mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-chat-'));

  it('points the one adapter at the sandbox by default, and at Discord in production', () => {
    const local = loadConfig({ DATA_DIR: dir(), PORT: '4100' });
    expect(local).toMatchObject({
      CHAT_PROVIDER: 'discord',
      DISCORD_SANDBOX: true,
      DISCORD_API_URL: 'http://127.0.0.1:4100/sandbox/discord/api',
      DISCORD_WEB_URL: 'http://127.0.0.1:4100/sandbox/discord',
    });
    expect(
      loadConfig({ DATA_DIR: dir(), PUBLIC_URL: 'https://sbx.example/' }).DISCORD_API_URL,
    ).toBe('https://sbx.example/sandbox/discord/api');

    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dir(), ...env });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      return [];
    };
    const production = problems({ APP_ENV: 'production' });
    for (const name of ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'])
      expect(production).toContain(`${name}: required in production`);
    expect(
      problems({
        APP_ENV: 'production',
        DISCORD_API_URL: 'https://sbx.example/sandbox/discord/api',
      }),
    ).toContain('DISCORD_API_URL: must be https://discord.com/api in production');
    // The separate sandbox provider is gone: the sandbox is the Discord adapter's default.
    expect(problems({ CHAT_PROVIDER: 'sandbox' })[0]).toMatch(/^CHAT_PROVIDER: must be discord/);
    expect(problems({ DISCORD_BOT_TOKEN: 'token' })).toEqual([
      'DISCORD_CLIENT_ID: required with the other DISCORD_* settings of a Discord application',
      'DISCORD_CLIENT_SECRET: required with the other DISCORD_* settings of a Discord application',
    ]);
    const discord = loadConfig({
      DATA_DIR: dir(),
      DISCORD_CLIENT_ID: '1100000000000000001',
      DISCORD_CLIENT_SECRET: 'secret',
      DISCORD_BOT_TOKEN: 'token',
    });
    expect(discord.DISCORD_SANDBOX).toBe(false);
    expect(discord.DISCORD_API_URL).toBe('https://discord.com/api');
    expect(discord.DISCORD_WEB_URL).toBe('https://discord.com');
  });

  it('serves no sandbox when a Discord application is configured', async () => {
    const real = await startTestApp({
      DISCORD_CLIENT_ID: '1100000000000000001',
      DISCORD_CLIENT_SECRET: 'secret',
      DISCORD_BOT_TOKEN: 'token',
    });
    try {
      expect(real.deps.discordSandbox).toBeNull();
      for (const url of [
        '/sandbox/discord',
        `${API}/users/@me`,
        `${API}/gateway/bot`,
        '/sandbox/discord/_stats',
      ])
        expect((await real.app.inject({ url, headers: bot() })).statusCode, url).toBe(404);
    } finally {
      await real.close();
    }
  });
});

describe('seeding', () => {
  it('is idempotent by name', async () => {
    const again = await seedSandboxGuild(t.database.db, {
      name: 'Sandbox Pages',
      roles: ['VIP', 'Member'],
      managedRoles: ['Nitro Booster'],
      ownerUsername: 'pages_owner',
    });
    expect(again).toEqual(guild);
    const roles = await sandbox.roles(guild.guildId);
    expect(roles.map((r) => r.name).sort()).toEqual(
      ['@everyone', 'Member', 'Nitro Booster', 'Tradeshelf', 'VIP'].sort(),
    );
    const first = await seedSandboxMembers(t.database.db, guild.guildId, 3);
    const second = await seedSandboxMembers(t.database.db, guild.guildId, 3);
    expect(second).toEqual(first);
  });
});
