import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { listen, within } from '../../../test/http.ts';
import { sandboxAdapter, sandboxControl, sandboxFault } from '../../../test/discord.ts';
import { DiscordChat, memberEventFromDispatch, type DiscordChatOptions } from './discord.ts';
import { ChatError, type MemberEvent } from './port.ts';
import {
  seedSandboxGuild,
  seedSandboxMembers,
  type SandboxDiscord,
  type SeededGuild,
} from './sandbox.ts';
import type { SandboxRequest } from './sandbox-traffic.ts';

/*
 * The real adapter against the Discord sandbox over loopback HTTP: the code path production runs
 * against Discord, with the sandbox answering as Discord does.
 */

let t: TestApp;
let base: string;
let sandbox: SandboxDiscord;
let chat: DiscordChat;
let alpha: SeededGuild;
const REDIRECT = () => `${base}/discord-auth-callback`;
const ROLE_ROUTE = 'PUT /guilds/:g/members/:u/roles/:r';

function adapter(over: Partial<DiscordChatOptions> = {}): DiscordChat {
  return sandboxAdapter(t, base, over);
}

beforeAll(async () => {
  t = await startTestApp();
  base = `http://127.0.0.1:${await listen(t.app)}`;
  sandbox = t.deps.discordSandbox!;
  chat = adapter();
  alpha = await seedSandboxGuild(t.database.db, {
    name: 'Alpha Edge Traders',
    roles: ['VIP', 'Member'],
    managedRoles: ['Nitro Booster'],
  });
});
afterAll(async () => {
  await chat?.close();
  await t?.close();
});
afterEach(async () => {
  await control('DELETE', '/_faults');
});

const control = (method: string, path: string, body?: unknown) =>
  sandboxControl(base, method, path, body);
const fault = (route: string, status: number, count: number, retryAfter?: number) =>
  sandboxFault(base, route, status, count, retryAfter || undefined);

async function requestsTo(route: string): Promise<SandboxRequest[]> {
  const q = new URLSearchParams({ route });
  return ((await control('GET', `/_requests?${q}`)) as { requests: SandboxRequest[] }).requests;
}

/** Posts a sandbox page's form as the browser would: same origin, url-encoded, no redirects followed. */
function post(path: string, form: URLSearchParams, cookie?: string) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { origin: base, ...(cookie ? { cookie } : {}) },
  });
}

/** A person goes through the authorize page; returns the redirect's query. */
async function authorize(
  username: string,
  scopes = ['identify', 'guilds.join'],
  grant = scopes,
  decision = 'authorize',
): Promise<URLSearchParams> {
  const url = new URL(
    chat.authorizeUrl({ state: `st-${username}`, redirectUri: REDIRECT(), scopes }),
  );
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Signed in as');
  const form = new URLSearchParams(url.searchParams);
  form.set('username', username);
  form.set('decision', decision);
  for (const s of grant) if (s !== 'identify') form.append('grant', s);
  const res = await post('/sandbox/discord/oauth2/authorize', form);
  expect(res.status).toBe(303);
  const to = new URL(res.headers.get('location')!);
  expect(`${to.origin}${to.pathname}`).toBe(REDIRECT());
  expect(to.searchParams.get('state')).toBe(`st-${username}`);
  return to.searchParams;
}

/** Authorises and exchanges: the person's token and id. */
async function connect(username: string, scopes?: string[], grant?: string[]) {
  const code = (await authorize(username, scopes, grant)).get('code')!;
  const token = await chat.exchangeCode(code, REDIRECT());
  const user = await chat.currentUser(token.accessToken);
  return { token, user };
}

async function rejection(promise: Promise<unknown>): Promise<ChatError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a ChatError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChatError);
  return err as ChatError;
}

describe('OAuth2', () => {
  it('builds Discord’s authorize and install links', () => {
    const url = new URL(
      chat.authorizeUrl({
        state: 's1',
        redirectUri: 'https://x.test/cb',
        scopes: ['identify', 'guilds.join'],
      }),
    );
    expect(url.pathname).toBe('/sandbox/discord/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: t.config.DISCORD_CLIENT_ID,
      scope: 'identify guilds.join',
      state: 's1',
      redirect_uri: 'https://x.test/cb',
      prompt: 'none',
    });
    const install = new URL(chat.installUrl({ state: 's2', redirectUri: 'https://x.test/bot' }));
    expect(Object.fromEntries(install.searchParams)).toEqual({
      client_id: t.config.DISCORD_CLIENT_ID,
      scope: 'bot',
      // Manage Roles, Create Invite; Manage Channels, View Channels, Send Messages, Embed Links and
      // Read Message History for alert channels (ADR 059).
      permissions: String(0x10000000 | 0x1 | 0x10 | 0x400 | 0x800 | 0x4000 | 0x10000),
      state: 's2',
      redirect_uri: 'https://x.test/bot',
      response_type: 'code',
    });
    const real = new DiscordChat({
      clientId: '1',
      clientSecret: 'x',
      botToken: 'y',
    });
    expect(
      real.authorizeUrl({ state: 's', redirectUri: 'https://x.test', scopes: ['identify'] }),
    ).toMatch(/^https:\/\/discord\.com\/oauth2\/authorize\?/);
  });

  it('exchanges a code once for a token that reads the account', async () => {
    const code = (await authorize('oauth_alice')).get('code')!;
    const grant = await chat.exchangeCode(code, REDIRECT());
    expect(grant.scopes).toEqual(['identify', 'guilds.join']);
    expect(grant.refreshToken).toBeTruthy();
    expect(grant.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const user = await chat.currentUser(grant.accessToken);
    expect(user).toMatchObject({ username: 'oauth_alice', globalName: null, avatarUrl: null });
    expect(user.id).toMatch(/^\d{17,19}$/);

    const reused = await rejection(chat.exchangeCode(code, REDIRECT()));
    expect(reused.kind).toBe('invalid_grant');
    expect(reused.retryable).toBe(false);
  });

  it('refuses an expired code, one for another redirect, and a bad token', async () => {
    const expired = (await authorize('oauth_bob')).get('code')!;
    // Ten minutes passing: the code's expiry moves into the past.
    await t.database.db.execute(
      sql`update sandbox_discord_oauth_codes set expires_at = now() - interval '1 second' where used_at is null`,
    );
    expect((await rejection(chat.exchangeCode(expired, REDIRECT()))).kind).toBe('invalid_grant');

    const other = (await authorize('oauth_bob')).get('code')!;
    expect((await rejection(chat.exchangeCode(other, `${base}/elsewhere`))).kind).toBe(
      'invalid_grant',
    );

    expect((await rejection(chat.currentUser('not-a-token'))).kind).toBe('invalid_grant');
  });

  it('says when the person cancels, and keeps the scopes they declined out of the grant', async () => {
    const cancelled = await authorize('oauth_carol', undefined, undefined, 'cancel');
    expect(cancelled.get('error')).toBe('access_denied');
    expect(cancelled.get('code')).toBeNull();

    const { token, user } = await connect('oauth_carol', ['identify', 'guilds.join'], ['identify']);
    expect(token.scopes).toEqual(['identify']);
    const err = await rejection(chat.addMember(alpha.guildId, user.id, token.accessToken, []));
    expect(err.kind).toBe('missing_scope');
  });

  it('completes a bot install with the server from Discord’s token answer, once', async () => {
    const owner = await sandbox.ensureUser('install_owner');
    const guildId = await sandbox.createGuild({
      name: 'Install Target',
      ownerId: owner!.id,
      roles: ['Gold'],
    });
    const redirect = `${base}/vendor/delivery/discord`;
    const url = new URL(chat.installUrl({ state: 'inst-9', redirectUri: redirect }));
    const cookie = `sandbox_discord_user=${owner!.id}`;
    expect((await fetch(url, { headers: { cookie } })).status).toBe(200);
    const form = new URLSearchParams(url.searchParams);
    form.set('guild_id', guildId);
    form.set('decision', 'authorize');
    form.append('perm', String(0x10000000));
    const res = await post('/sandbox/discord/oauth2/authorize', form, cookie);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      code: expect.any(String),
      state: 'inst-9',
      guild_id: guildId,
      permissions: String(0x10000000),
    });
    const code = back.searchParams.get('code')!;
    expect(await chat.exchangeInstall(code, redirect)).toEqual({
      id: guildId,
      name: 'Install Target',
      iconUrl: null,
    });
    expect((await rejection(chat.exchangeInstall(code, redirect))).kind).toBe('invalid_grant');
    expect((await rejection(chat.exchangeInstall('forged', redirect))).kind).toBe('invalid_grant');
    // A person's sign-in code names no server: not an install.
    const signIn = (await authorize('install_buyer')).get('code')!;
    const err = await rejection(chat.exchangeInstall(signIn, REDIRECT()));
    expect(err.kind).toBe('invalid_grant');
    expect(err.message).toMatch(/no bot/);
  });

  it('refuses wrong client credentials', async () => {
    const code = (await authorize('oauth_dan')).get('code')!;
    const wrong = adapter({ clientSecret: 'not-the-secret' });
    try {
      expect((await rejection(wrong.exchangeCode(code, REDIRECT()))).kind).toBe('forbidden');
    } finally {
      await wrong.close();
    }
  });
});

describe('guilds and roles', () => {
  it('reads the guild and its roles, the bot’s own on top', async () => {
    expect(await chat.guild(alpha.guildId)).toEqual({
      id: alpha.guildId,
      name: 'Alpha Edge Traders',
      iconUrl: null,
    });
    const roles = await chat.roles(alpha.guildId);
    const byName = Object.fromEntries(roles.map((r) => [r.name, r]));
    expect(byName.VIP).toMatchObject({ id: alpha.roleIds.VIP, managed: false });
    expect(byName.VIP!.position).toBeGreaterThan(byName.Member!.position);
    expect(byName['Nitro Booster']!.managed).toBe(true);
    expect(byName.Tradeshelf).toMatchObject({ id: alpha.botRoleId, managed: true });
    expect(Math.max(...roles.map((r) => r.position))).toBe(byName.Tradeshelf!.position);
    expect((await rejection(chat.guild('1000000000000000001'))).kind).toBe('not_found');
  });

  it('explains each role the bot cannot assign, with the fix', async () => {
    const { VIP, Member } = alpha.roleIds;
    expect(await chat.roleProblems(alpha.guildId, [VIP!, Member!])).toEqual([]);

    expect(await chat.roleProblems(alpha.guildId, [alpha.roleIds['Nitro Booster']!])).toEqual([
      '“Nitro Booster” is managed by an integration and cannot be assigned.',
    ]);

    await sandbox.moveBotRole(alpha.guildId, VIP!);
    try {
      expect(await chat.roleProblems(alpha.guildId, [VIP!, Member!])).toEqual([
        "The role “VIP” sits above the bot's role: drag the Tradeshelf role above it in Server Settings → Roles.",
      ]);
    } finally {
      await sandbox.moveBotRole(alpha.guildId, null);
    }

    await sandbox.setBotManageRoles(alpha.guildId, false);
    try {
      expect(await chat.roleProblems(alpha.guildId, [Member!])).toEqual([
        'The bot needs the Manage Roles permission in Alpha Edge Traders: Server Settings → Roles → Tradeshelf → turn on Manage Roles.',
      ]);
    } finally {
      await sandbox.setBotManageRoles(alpha.guildId, true);
    }
    expect(await chat.roleProblems(alpha.guildId, [Member!])).toEqual([]);
  });

  it('says so when the bot is not in the server', async () => {
    const lonely = await sandbox.createGuild({
      name: 'No Bot Here',
      ownerId: alpha.ownerId,
      roles: ['VIP'],
    });
    expect(await chat.roleProblems(lonely, ['1'])).toEqual([
      'The bot is not in this server any more: add it again with the install link.',
    ]);
    expect((await rejection(chat.roles(lonely))).kind).toBe('forbidden');
  });
});

describe('members', () => {
  it('adds a member with roles once, then reports them as already in', async () => {
    const { token, user } = await connect('member_erin');
    expect(await chat.member(alpha.guildId, user.id)).toBeNull();
    expect(
      await chat.addMember(alpha.guildId, user.id, token.accessToken, [alpha.roleIds.VIP!]),
    ).toBe('added');
    expect(await chat.member(alpha.guildId, user.id)).toEqual({
      userId: user.id,
      roleIds: [alpha.roleIds.VIP],
    });
    expect(
      await chat.addMember(alpha.guildId, user.id, token.accessToken, [alpha.roleIds.Member!]),
    ).toBe('already');
    // Discord ignores `roles` for someone already in.
    expect((await chat.member(alpha.guildId, user.id))!.roleIds).toEqual([alpha.roleIds.VIP]);
  });

  it('adds and removes roles idempotently, also for someone who left', async () => {
    const { token, user } = await connect('member_frank');
    await chat.addMember(alpha.guildId, user.id, token.accessToken, []);
    const member = alpha.roleIds.Member!;
    await chat.addRole(alpha.guildId, user.id, member, 'Purchase p_1');
    await chat.addRole(alpha.guildId, user.id, member, 'Purchase p_1');
    expect((await chat.member(alpha.guildId, user.id))!.roleIds).toEqual([member]);
    await chat.removeRole(alpha.guildId, user.id, member, 'Refund p_1');
    await chat.removeRole(alpha.guildId, user.id, member, 'Refund p_1');
    expect((await chat.member(alpha.guildId, user.id))!.roleIds).toEqual([]);

    const reasons = (await requestsTo(ROLE_ROUTE)).map((r) => r.reason);
    expect(reasons).toContain('Purchase p_1');

    await sandbox.kick(alpha.guildId, user.id);
    await chat.removeRole(alpha.guildId, user.id, member, 'Refund p_1');
    const err = await rejection(chat.addRole(alpha.guildId, user.id, member, 'x'));
    expect(err.kind).toBe('not_found');
  });

  it('refuses a managed role, or one above the bot’s, as Discord does', async () => {
    const { token, user } = await connect('member_gina');
    await chat.addMember(alpha.guildId, user.id, token.accessToken, []);
    const managed = await rejection(
      chat.addRole(alpha.guildId, user.id, alpha.roleIds['Nitro Booster']!, 'x'),
    );
    expect(managed.kind).toBe('forbidden');
    await sandbox.moveBotRole(alpha.guildId, alpha.roleIds.Member!);
    try {
      const above = await rejection(chat.addRole(alpha.guildId, user.id, alpha.roleIds.VIP!, 'x'));
      expect(above.kind).toBe('forbidden');
    } finally {
      await sandbox.moveBotRole(alpha.guildId, null);
    }
  });

  it('pages through more than a thousand members in id order', async () => {
    const big = await seedSandboxGuild(t.database.db, { name: 'Big Server', roles: ['Holder'] });
    const { userIds } = await seedSandboxMembers(t.database.db, big.guildId, 2_345, {
      roleIds: [big.roleIds.Holder!],
    });
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page = await chat.listMembers(big.guildId, { after, limit: 1000 });
      pages++;
      seen.push(...page.map((m) => m.userId));
      if (page.length < 1000) break;
      after = page.at(-1)!.userId;
    }
    expect(pages).toBe(3);
    // The seeded members, the owner and the bot, each once, ascending as numbers.
    expect(seen).toHaveLength(2_347);
    expect(new Set(seen).size).toBe(seen.length);
    const sorted = [...seen].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(seen).toEqual(sorted);
    expect(seen).toEqual(expect.arrayContaining(userIds));
    const one = await chat.member(big.guildId, userIds[0]!);
    expect(one!.roleIds).toEqual([big.roleIds.Holder]);
  });
});

describe('invites', () => {
  it('creates a single-use invite to the first text channel that a person joins by', async () => {
    const before = Date.now();
    const invite = await chat.createInvite(alpha.guildId, 3600);
    expect(invite.url).toMatch(new RegExp(`^${base}/sandbox/discord/invite/[A-Za-z0-9]+$`));
    expect(invite.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 3_599_000);
    const [sent] = (await requestsTo('POST /channels/:c/invites')).slice(-1);
    expect(sent!.path).toBe(`/channels/${alpha.channelId}/invites`);

    const path = new URL(invite.url).pathname;
    const page = await fetch(invite.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Alpha Edge Traders');

    const joined = await post(path, new URLSearchParams({ username: 'invitee_hana' }));
    expect(joined.status).toBe(200);
    expect(await joined.text()).toContain('Welcome to Alpha Edge Traders');
    const hana = (await sandbox.ensureUser('invitee_hana'))!;
    expect(await chat.member(alpha.guildId, hana.id)).toEqual({ userId: hana.id, roleIds: [] });

    // Single use: the next person is turned away, and so is the page.
    const second = await post(path, new URLSearchParams({ username: 'invitee_ivan' }));
    expect(second.status).toBe(404);
    expect((await fetch(invite.url)).status).toBe(404);
  });

  it('refuses an expired invite', async () => {
    const invite = await chat.createInvite(alpha.guildId, 60);
    await t.database.db.execute(
      sql`update sandbox_discord_invites set expires_at = now() - interval '1 second'`,
    );
    const res = await post(
      new URL(invite.url).pathname,
      new URLSearchParams({ username: 'late_jo' }),
    );
    expect(res.status).toBe(404);
  });
});

describe('rate limits and failures', () => {
  it('waits out a 429 for its retry_after, then succeeds', async () => {
    const { token, user } = await connect('limit_kim');
    await chat.addMember(alpha.guildId, user.id, token.accessToken, []);
    await fault(ROLE_ROUTE, 429, 1, 0.4);
    await chat.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x');
    const [limited, ok] = (await requestsTo(ROLE_ROUTE)).slice(-2);
    expect(limited!.status).toBe(429);
    expect(ok!.status).toBe(204);
    expect(ok!.at - limited!.at).toBeGreaterThanOrEqual(400);
  });

  it('gives up as rate_limited after its retries, or at once for a long wait', async () => {
    const { token, user } = await connect('limit_lee');
    await chat.addMember(alpha.guildId, user.id, token.accessToken, []);
    const before = (await requestsTo(ROLE_ROUTE)).length;
    await fault(ROLE_ROUTE, 429, 10, 0.05);
    const err = await rejection(chat.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x'));
    expect(err.kind).toBe('rate_limited');
    expect(err.retryable).toBe(true);
    expect(err.retryAfterMs).toBeGreaterThan(0);
    // The first attempt and three retries, every one answered 429.
    const sent = (await requestsTo(ROLE_ROUTE)).slice(before);
    expect(sent.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    await control('DELETE', '/_faults');

    // Its own client: the bucket stays closed for the two minutes Discord asked for.
    const patient = adapter();
    try {
      // A first answer teaches it the route's bucket, which the 429 then closes.
      await patient.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x');
      await fault(ROLE_ROUTE, 429, 1, 120);
      const long = await rejection(
        patient.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x'),
      );
      expect(long.kind).toBe('rate_limited');
      expect(long.retryAfterMs).toBeGreaterThanOrEqual(120_000);
      // The next call on that bucket does not even try before then.
      const count = (await requestsTo(ROLE_ROUTE)).length;
      const again = await rejection(
        patient.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x'),
      );
      expect(again.kind).toBe('rate_limited');
      expect(await requestsTo(ROLE_ROUTE)).toHaveLength(count);
    } finally {
      await patient.close();
    }
  });

  it('turns 403 into forbidden, and retries 5xx before giving up as unavailable', async () => {
    const { token, user } = await connect('fail_mo');
    await chat.addMember(alpha.guildId, user.id, token.accessToken, []);
    await fault(ROLE_ROUTE, 403, 1);
    const denied = await rejection(
      chat.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x'),
    );
    expect(denied.kind).toBe('forbidden');
    expect(denied.retryable).toBe(false);

    const before = (await requestsTo(ROLE_ROUTE)).length;
    await fault(ROLE_ROUTE, 503, 2);
    await chat.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x');
    expect((await requestsTo(ROLE_ROUTE)).slice(before).map((r) => r.status)).toEqual([
      503, 503, 204,
    ]);

    await fault(ROLE_ROUTE, 500, 10);
    const down = await rejection(chat.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x'));
    expect(down.kind).toBe('unavailable');
    expect(down.retryable).toBe(true);
    expect((await requestsTo(ROLE_ROUTE)).slice(before + 3).map((r) => r.status)).toEqual([
      500, 500, 500, 500,
    ]);
  });

  it('is unavailable when nothing answers', async () => {
    const nowhere = adapter({ apiUrl: 'http://127.0.0.1:9/api', retries: 0 });
    try {
      expect((await rejection(nowhere.guild(alpha.guildId))).kind).toBe('unavailable');
    } finally {
      await nowhere.close();
    }
  });

  it('keeps to the route buckets’ headers and waits out the global limit', async () => {
    await control('PUT', '/_limits', { routeLimit: 2, routeWindowMs: 300 });
    await control('DELETE', '/_stats');
    try {
      const fresh = adapter();
      await Promise.all(Array.from({ length: 6 }, () => fresh.roles(alpha.guildId)));
      await fresh.close();
      const stats = (await control('GET', '/_stats')) as { requests: number; rateLimited: number };
      // Told by X-RateLimit-Remaining, the client waited for each bucket reset: never refused.
      expect(stats).toMatchObject({ requests: 6, rateLimited: 0 });
      const sent = await requestsTo('GET /guilds/:g/roles');
      expect(sent.at(-1)!.at - sent[0]!.at).toBeGreaterThanOrEqual(600);

      await control('PUT', '/_limits', { routeLimit: 100, globalPerSecond: 3 });
      await control('DELETE', '/_stats');
      const burst = adapter();
      const roles = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          i % 2 ? burst.roles(alpha.guildId) : burst.guild(alpha.guildId),
        ),
      );
      await burst.close();
      expect(roles).toHaveLength(5);
      const after = (await control('GET', '/_stats')) as { rateLimited: number; requests: number };
      // The sandbox refused the burst past 3/s (X-RateLimit-Global); every call still succeeded.
      expect(after.rateLimited).toBeGreaterThan(0);
      expect(after.requests).toBe(5 + after.rateLimited);
    } finally {
      await control('PUT', '/_limits', {
        routeLimit: 10,
        routeWindowMs: 1000,
        globalPerSecond: 50,
      });
    }
  });
});

describe('member events', () => {
  it('reports changes by the API and by hand, as the gateway would', async () => {
    const events: MemberEvent[] = [];
    const watcher = adapter();
    await watcher.watchMembers((e) => events.push(e));
    try {
      const { token, user } = await connect('events_nia');
      const at = (n: number) =>
        within(
          2000,
          `event ${n}`,
          waitFor(() => events.length >= n),
        );
      await watcher.addMember(alpha.guildId, user.id, token.accessToken, [alpha.roleIds.VIP!]);
      await at(1);
      await watcher.addRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x');
      await at(2);
      // By hand on the server page: remove a role, then kick.
      const page = `/sandbox/discord/servers/${alpha.guildId}/members/${user.id}`;
      expect(
        (await post(`${page}/roles/${alpha.roleIds.VIP}/remove`, new URLSearchParams())).status,
      ).toBe(303);
      await at(3);
      expect((await post(`${page}/kick`, new URLSearchParams())).status).toBe(303);
      await at(4);
      const sorted = (ids: string[]) => [...ids].sort();
      expect(events).toEqual([
        {
          type: 'member.joined',
          guildId: alpha.guildId,
          member: { userId: user.id, roleIds: [alpha.roleIds.VIP] },
        },
        {
          type: 'member.updated',
          guildId: alpha.guildId,
          member: { userId: user.id, roleIds: sorted([alpha.roleIds.VIP!, alpha.roleIds.Member!]) },
        },
        {
          type: 'member.updated',
          guildId: alpha.guildId,
          member: { userId: user.id, roleIds: [alpha.roleIds.Member] },
        },
        { type: 'member.left', guildId: alpha.guildId, userId: user.id },
      ]);
      // Idempotent calls change nothing and say nothing.
      await watcher.removeRole(alpha.guildId, user.id, alpha.roleIds.Member!, 'x');
    } finally {
      await watcher.close();
    }
    const count = events.length;
    await sandbox.kick(alpha.guildId, alpha.ownerId);
    expect(events).toHaveLength(count);
  });

  it('maps the gateway’s member dispatches', () => {
    const user = { id: '2', username: 'x', discriminator: '0', global_name: null, avatar: null };
    const base = {
      guild_id: '1',
      user,
      roles: ['5'],
      joined_at: '',
      deaf: false,
      mute: false,
      flags: 0,
    };
    expect(
      memberEventFromDispatch({
        op: 0,
        s: 1,
        t: GatewayDispatchEvents.GuildMemberAdd,
        d: base,
      } as GatewayDispatchPayload),
    ).toEqual({ type: 'member.joined', guildId: '1', member: { userId: '2', roleIds: ['5'] } });
    expect(
      memberEventFromDispatch({
        op: 0,
        s: 2,
        t: GatewayDispatchEvents.GuildMemberUpdate,
        d: base,
      } as GatewayDispatchPayload),
    ).toEqual({ type: 'member.updated', guildId: '1', member: { userId: '2', roleIds: ['5'] } });
    expect(
      memberEventFromDispatch({
        op: 0,
        s: 3,
        t: GatewayDispatchEvents.GuildMemberRemove,
        d: { guild_id: '1', user },
      } as GatewayDispatchPayload),
    ).toEqual({ type: 'member.left', guildId: '1', userId: '2' });
    expect(
      memberEventFromDispatch({
        op: 0,
        s: 4,
        t: GatewayDispatchEvents.TypingStart,
        d: {},
      } as GatewayDispatchPayload),
    ).toBeNull();
  });
});

/** Resolves once `done()` holds; each check waits for the next macrotask, never a fixed time. */
async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
