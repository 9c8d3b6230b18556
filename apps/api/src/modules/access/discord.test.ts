import { discordRoutes, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import {
  buyPaidProduct,
  createBuyer,
  deliverEvent,
  paySession,
  purchaseIdOfSession,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { discordOverHttp } from '../../../test/discord.ts';
import { seedSandboxGuild, type SeededGuild } from '../../integrations/chat/sandbox.ts';
import { convergeUser } from './converge.ts';
import { reconcileAll } from './reconcile.ts';
import { watchMembers } from './watch.ts';

// Access delivery end to end through the API, with the real Discord adapter talking to the Discord
// sandbox over loopback HTTP: buy, link, get the role; refund, lose it; repairs both ways.

let t: TestApp;
let guild: SeededGuild;
let vendorToken: string;
let product: Awaited<ReturnType<typeof createProduct>>;
let vendorUrl: string;

beforeAll(async () => {
  // One connection, as the embedded database has: delivery must never hold one while it waits on
  // Discord (the sandbox answering it is served by this process and needs that connection).
  t = await startTestApp({}, { poolSize: 1 });
  await discordOverHttp(t);
  await watchMembers(t.deps, { error: () => undefined });
  const vendor = await signedInVendor(t, { vendorUrl: 'discord-vendor' });
  vendorUrl = vendor.vendorUrl;
  vendorToken = vendor.token;
  product = await createProduct(t, vendor.id, { kind: 'community', amount: 5_000 });
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Access Test Traders',
    roles: ['VIP', 'Member'],
    managedRoles: ['Nitro Booster'],
  });
  await t.database.db.execute(sql`insert into vendor_discord_servers (vendor_id, guild_id, name)
    values (${vendor.id}, ${guild.guildId}, 'Access Test Traders')`);
});
afterAll(async () => {
  await t?.deps.chat.close();
  await t?.close();
});

const communities = async (token: string) => {
  await t.jobs.settle();
  const res = await t.call(discordRoutes.userCommunities, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().communities as Array<{
    _id: string;
    health: { status: string; message: string };
    history: Array<{ type: string }>;
    invite: { url: string } | null;
  }>;
};

const rolesOf = async (userId: string) =>
  (await t.deps.discordSandbox!.member(guild.guildId, userId))?.roleIds ?? null;

const buyCommunity = () => buyPaidProduct(t, vendorUrl, product.priceId);

/** Links a sandbox Discord account the way the callback page does: authorise, then the response. */
async function link(token: string, username: string, scopes = ['identify', 'guilds.join']) {
  const auth = await t.call(discordRoutes.discordAuthorize, { token, query: {} });
  expect(auth.statusCode, auth.body).toBe(200);
  const url = new URL(auth.json().url);
  const user = (await t.deps.discordSandbox!.ensureUser(username))!;
  const code = await t.deps.discordSandbox!.createCode({
    userId: user.id,
    redirectUri: url.searchParams.get('redirect_uri')!,
    scopes,
    guildId: null,
  });
  const state = url.searchParams.get('state')!;
  const res = await t.call(discordRoutes.discordOauthResponse, { token, query: { code, state } });
  return { res, user, code, state };
}

describe('binding a community', () => {
  it('refuses a role above the bot, with the fix in words, and binds an assignable one', async () => {
    await t.deps.discordSandbox!.moveBotRole(guild.guildId, guild.roleIds.VIP!);
    const refused = await t.call(discordRoutes.vendorBindCommunity, {
      token: vendorToken,
      body: { productId: product.id, guildId: guild.guildId, roleIds: [guild.roleIds.VIP!] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/VIP/);
    await t.deps.discordSandbox!.moveBotRole(guild.guildId, null);
    const bound = await t.call(discordRoutes.vendorBindCommunity, {
      token: vendorToken,
      body: { productId: product.id, guildId: guild.guildId, roleIds: [guild.roleIds.Member!] },
    });
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json().binding.roles).toEqual([{ id: guild.roleIds.Member, name: 'Member' }]);
  });
});

describe('a paid community', () => {
  it('asks to connect Discord, grants on linking, and takes the role back on a full refund', async () => {
    const buyer = await buyCommunity();
    const [before] = await communities(buyer.token);
    expect(before!.health.status).toBe('needs_link');

    const { res, user } = await link(buyer.token, 'access_buyer_one');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().discord).toMatchObject({
      username: 'access_buyer_one',
      canJoinServers: true,
    });
    const [granted] = await communities(buyer.token);
    expect(granted!.health.status).toBe('active');
    expect(granted!.history.map((h) => h.type)).toContain('granted');
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);

    expect(
      (
        await deliverEvent(t, {
          id: `evt_ref_${buyer.purchaseId}`,
          type: 'refund',
          purchaseId: buyer.purchaseId,
        })
      ).statusCode,
    ).toBe(200);
    const [ended] = await communities(buyer.token);
    expect(ended!.health.status).toBe('ended');
    expect(await rolesOf(user.id)).not.toContain(guild.roleIds.Member);
  });

  it('records one grant when two converges of the buyer run at once (a web node’s and the worker’s)', async () => {
    const buyer = await createBuyer(t);
    const { user } = await link(buyer.token, 'access_buyer_twice');
    // Already in the server without the role, as many buyers are: both runs find it missing.
    await t.deps.discordSandbox!.addMember(guild.guildId, user.id, []);
    t.jobs.hold();
    const sessionId = await startProductCheckout(t, buyer, vendorUrl, { priceId: product.priceId });
    await paySession(t, sessionId);
    const purchaseId = await purchaseIdOfSession(t, sessionId);
    await Promise.all([
      convergeUser(t.deps, buyer.id, { cause: 'purchase' }),
      convergeUser(t.deps, buyer.id, { cause: 'purchase' }),
    ]);
    await t.jobs.settle();
    const grants = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from access_events ev join entitlements e on e.id = ev.entitlement_id
          where e.purchase_id = ${purchaseId} and ev.type = 'granted'`,
    );
    expect(grants.rows[0]!.n).toBe(1);
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
    const [community] = await communities(buyer.token);
    expect(community!.health.status).toBe('active');
  });

  it('takes the role back when the vendor revokes the purchase, saying so', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_revoked');
    expect((await communities(buyer.token))[0]!.health.status).toBe('active');
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);

    const revoked = await t.call(ordersRoutes.vendorRevokeAccess, {
      token: vendorToken,
      params: { id: buyer.purchaseId },
      body: { reason: 'Posted signals outside the server.' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const [ended] = await communities(buyer.token);
    expect(ended!.health).toMatchObject({
      status: 'ended',
      message: 'Ended: the vendor removed this access.',
    });
    expect(await rolesOf(user.id)).not.toContain(guild.roleIds.Member);
  });

  it('times each entitlement change to the converge that acted on it, by outcome (/metrics)', async () => {
    const lagCounts = async () => {
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      const counts: Record<string, number> = {};
      for (const m of res.body.matchAll(
        /^tradeshelf_entitlement_convergence_lag_seconds_count\{event="([^"]+)",outcome="([^"]+)"\} (\d+)$/gm,
      ))
        counts[`${m[1]} ${m[2]}`] = Number(m[3]);
      return counts;
    };
    const before = await lagCounts();
    // Paid before connecting Discord: the converge can only wait for the buyer.
    await buyCommunity();
    await t.jobs.settle();
    // Connected, then paid: the role is given; then the vendor revokes it.
    const buyer = await createBuyer(t);
    const { user } = await link(buyer.token, 'access_buyer_lag');
    const sessionId = await startProductCheckout(t, buyer, vendorUrl, { priceId: product.priceId });
    await paySession(t, sessionId);
    await t.jobs.settle();
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
    const purchaseId = await purchaseIdOfSession(t, sessionId);
    const revoked = await t.call(ordersRoutes.vendorRevokeAccess, {
      token: vendorToken,
      params: { id: purchaseId },
      body: { reason: 'Testing the lag.' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await t.jobs.settle();
    expect(await rolesOf(user.id)).not.toContain(guild.roleIds.Member);

    const after = await lagCounts();
    const added = Object.fromEntries(
      Object.entries(after)
        .map(([k, n]) => [k, n - (before[k] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    expect(added).toEqual({
      'purchase.paid needs_buyer': 1,
      'purchase.paid in_line': 1,
      'purchase.revoked in_line': 1,
    });
  });

  it('refuses a replayed or forged state, and a Discord account linked to someone else', async () => {
    const first = await buyCommunity();
    const { res, state, user } = await link(first.token, 'access_buyer_two');
    expect(res.statusCode).toBe(200);
    const replay = await t.call(discordRoutes.discordOauthResponse, {
      token: first.token,
      query: { code: 'whatever', state },
    });
    expect(replay.statusCode).toBe(400);
    const forged = await t.call(discordRoutes.discordOauthResponse, {
      token: first.token,
      query: { code: 'whatever', state: `${state.slice(0, -2)}xx` },
    });
    expect(forged.statusCode).toBe(400);

    const second = await createBuyer(t);
    const taken = await link(second.token, user.username);
    expect(taken.res.statusCode).toBe(409);
    expect(
      (await t.call(discordRoutes.userDiscord, { token: second.token })).json().discord,
    ).toBeNull();
  });

  it('spends a state once when the callback is sent twice at the same moment', async () => {
    const buyer = await createBuyer(t);
    const auth = await t.call(discordRoutes.discordAuthorize, { token: buyer.token, query: {} });
    const url = new URL(auth.json().url);
    const user = (await t.deps.discordSandbox!.ensureUser('access_twice'))!;
    const code = await t.deps.discordSandbox!.createCode({
      userId: user.id,
      redirectUri: url.searchParams.get('redirect_uri')!,
      scopes: ['identify'],
      guildId: null,
    });
    const query = { code, state: url.searchParams.get('state')! };
    const answers = await Promise.all([
      t.call(discordRoutes.discordOauthResponse, { token: buyer.token, query }),
      t.call(discordRoutes.discordOauthResponse, { token: buyer.token, query }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('lets one of two accounts linking the same Discord account at once have it (409)', async () => {
    const [a, b] = [await createBuyer(t), await createBuyer(t)];
    const user = (await t.deps.discordSandbox!.ensureUser('access_contested'))!;
    const prepared = await Promise.all(
      [a, b].map(async (buyer) => {
        const auth = await t.call(discordRoutes.discordAuthorize, {
          token: buyer.token,
          query: {},
        });
        const url = new URL(auth.json().url);
        const code = await t.deps.discordSandbox!.createCode({
          userId: user.id,
          redirectUri: url.searchParams.get('redirect_uri')!,
          scopes: ['identify'],
          guildId: null,
        });
        return { token: buyer.token, query: { code, state: url.searchParams.get('state')! } };
      }),
    );
    const answers = await Promise.all(
      prepared.map((p) => t.call(discordRoutes.discordOauthResponse, p)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('unlinks (roles removed, entitlement kept) and relinking restores access', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_three');
    await t.jobs.settle();
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
    const unlinked = await t.call(discordRoutes.discordUnlink, { token: buyer.token });
    expect(unlinked.statusCode).toBe(200);
    const [after] = await communities(buyer.token);
    expect(after!.health.status).toBe('needs_link');
    expect(await rolesOf(user.id)).not.toContain(guild.roleIds.Member);
    await link(buyer.token, 'access_buyer_three');
    const [back] = await communities(buyer.token);
    expect(back!.health.status).toBe('active');
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
  });

  it('offers an invite when the buyer declined guilds.join, and grants once they join', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_four', ['identify']);
    const [waiting] = await communities(buyer.token);
    expect(waiting!.health.status).toBe('needs_join');
    expect(waiting!.invite?.url).toMatch(/\/sandbox\/discord\/invite\//);
    const code = waiting!.invite!.url.split('/').pop()!;
    expect(await t.deps.discordSandbox!.acceptInvite(code, user.id)).toBe('joined');
    // The join reaches the app as a member event, handled after the sandbox answered.
    await expect
      .poll(async () => (await communities(buyer.token))[0]!.health.status)
      .toBe('active');
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
  });

  it('gives back a role removed by hand, and reconciliation takes a role held without access', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_five');
    await t.jobs.settle();
    await t.deps.discordSandbox!.removeRole(guild.guildId, user.id, guild.roleIds.Member!);
    await expect
      .poll(async () => (await communities(buyer.token))[0]!.history.map((h) => h.type))
      .toContain('repaired');
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);

    const stranger = (await t.deps.discordSandbox!.ensureUser('access_stranger'))!;
    await t.deps.discordSandbox!.addMember(guild.guildId, stranger.id, [guild.roleIds.Member!]);
    await t.jobs.settle();
    const result = await reconcileAll(t.deps);
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await rolesOf(stranger.id)).not.toContain(guild.roleIds.Member);
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
  });

  it('reads the member once per grant: the grant’s own member event converges nobody again', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_echo');
    await t.jobs.settle();
    // The role's member event is handled after the sandbox answered: give it time to queue a job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.jobs.settle();
    expect(await rolesOf(user.id)).toContain(guild.roleIds.Member);
    const reads = t.deps
      .discordSandbox!.traffic.requests({ route: 'GET /guilds/:g/members/:u' })
      .filter((r) => r.path.endsWith(`/members/${user.id}`));
    expect(reads).toHaveLength(1);
  });

  it('converges on an event whose roles agree when the delivery is recorded as failing', async () => {
    const buyer = await buyCommunity();
    const { user } = await link(buyer.token, 'access_buyer_failing');
    expect((await communities(buyer.token))[0]!.health.status).toBe('active');
    // Say the last attempt failed; the roles are right, and an event shows it (a role we do not manage).
    await t.database.db.execute(sql`update access_deliveries set state = 'failing',
      reason = 'Discord refused' where user_id = ${buyer.id}`);
    await t.deps.discordSandbox!.addRole(guild.guildId, user.id, guild.roleIds.VIP!);
    await expect
      .poll(async () => (await communities(buyer.token))[0]!.health.status)
      .toBe('active');
  });

  it('answers the reconnected community as `result`, the name the web client reads (docs/product.md#calls), and as `community`', async () => {
    const owner = await buyCommunity();
    const [mine] = await communities(owner.token);
    const res = await t.call(discordRoutes.reconnectCommunity, {
      token: owner.token,
      params: { id: mine!._id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ _id: mine!._id });
    expect(res.json().community).toEqual(res.json().result);
  });

  it('answers 404 for a community that is not the buyer’s', async () => {
    const owner = await buyCommunity();
    const [mine] = await communities(owner.token);
    const other = await createBuyer(t);
    const res = await t.call(discordRoutes.reconnectCommunity, {
      token: other.token,
      params: { id: mine!._id },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the username prompt’s "Connect Discord instead"', () => {
  const profile = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/user/profile',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().user.username as string | null;

  it('names an account without a username after its Discord name, reshaped to the rule', async () => {
    const buyer = await createBuyer(t);
    await t.database.db.execute(sql`update users set username = null where id = ${buyer.id}`);
    expect((await link(buyer.token, 'trader.jo')).res.statusCode).toBe(200);
    expect(await profile(buyer.token)).toBe('trader_jo');

    // The same name for a second account gets a number instead of a 409.
    const second = await createBuyer(t);
    await t.database.db.execute(sql`update users set username = null where id = ${second.id}`);
    expect((await link(second.token, 'Trader_Jo')).res.statusCode).toBe(200);
    expect(await profile(second.token)).toMatch(/^trader_jo\d{2,4}$/i);
  });

  it('never replaces a username the buyer chose', async () => {
    const buyer = await createBuyer(t);
    await t.database.db.execute(
      sql`update users set username = 'chosen_name' where id = ${buyer.id}`,
    );
    expect((await link(buyer.token, 'someone_else')).res.statusCode).toBe(200);
    expect(await profile(buyer.token)).toBe('chosen_name');
  });
});
