import { discordMessages as m, discordRoutes as r } from '@tradeshelf/contract';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import { createBuyer } from '../../../test/factories/orders.ts';
import { PERMISSION_NAMES } from '../../integrations/chat/permissions.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { discordOverHttp } from '../../../test/discord.ts';
import { seedSandboxGuild, type SeededGuild } from '../../integrations/chat/sandbox.ts';

// The vendor's Discord set-up through the API (the workspace's Discord page): install the bot and
// come back, list servers and community products, read roles with their problems, bind and unbind.
// Every route refuses a buyer (403) and another vendor's servers and products (404).

let t: TestApp;
let guild: SeededGuild;
type Vendor = { id: string; token: string };
let vendor: Vendor;
let other: Vendor;
let community: Awaited<ReturnType<typeof createProduct>>;
let otherCommunity: Awaited<ReturnType<typeof createProduct>>;
let buyerToken: string;
/** The Discord account that owns the vendor's server (and so may add bots to it). */
const SIGNAL_OWNER = 'signal_owner';

const makeVendor = (name: string): Promise<Vendor> => signedInVendor(t, { displayName: name });

/** Signs in on the sandbox's pages (any name works there, as its page says); returns the cookie. */
async function sandboxSignIn(username: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/sandbox/discord/session',
    payload: new URLSearchParams({ username, return: '/sandbox/discord' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
  });
  expect(res.statusCode).toBe(303);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

/**
 * The install as a browser makes it: the workspace's install link, Discord's (the sandbox's) page
 * signed in as `discordUser`, Authorize for `guildId`, and Discord's redirect back to the workspace
 * page. Returns the redirect's query (code, state, guild_id, permissions) and the link.
 */
async function addBot(v: Vendor, guildId: string, discordUser: string) {
  const link = await t.call(r.vendorDiscordInstall, { token: v.token });
  expect(link.statusCode, link.body).toBe(200);
  const url = new URL(link.json().url);
  const cookie = await sandboxSignIn(discordUser);
  const page = await t.app.inject({ url: `${url.pathname}${url.search}`, headers: { cookie } });
  expect(page.statusCode, page.body).toBe(200);
  const form = new URLSearchParams(url.searchParams);
  form.set('guild_id', guildId);
  form.set('decision', 'authorize');
  // Every permission the page offers stays ticked, as a person who just clicks Authorize leaves it.
  for (const [perm] of PERMISSION_NAMES) form.append('perm', String(perm));
  const res = await t.app.inject({
    method: 'POST',
    url: '/sandbox/discord/oauth2/authorize',
    payload: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://localhost',
      cookie,
    },
  });
  return { url, res, back: res.statusCode === 303 ? new URL(String(res.headers.location)) : null };
}

/** `addBot`, then the workspace page's call with the code and state Discord sent back. */
async function install(v: Vendor, guildId: string, discordUser: string) {
  const { url, back } = await addBot(v, guildId, discordUser);
  expect(back, 'Discord redirected back').not.toBeNull();
  const query = { state: back!.searchParams.get('state')!, code: back!.searchParams.get('code')! };
  return {
    url,
    back: back!,
    res: await t.call(r.vendorDiscordInstalled, { token: v.token, query }),
  };
}

/** The vendor's Discord screens' calls, as `token`. */
const rolesOf = (token: string, guildId: string) =>
  t.call(r.vendorDiscordRoles, { token, params: { id: guildId } });
const bind = (token: string, body: { productId: string; guildId: string; roleIds: string[] }) =>
  t.call(r.vendorBindCommunity, { token, body });
const unbind = (token: string, productId: string) =>
  t.call(r.vendorUnbindCommunity, { token, params: { productId } });

/** Which vendors hold `guildId`, straight from the table. */
async function holders(guildId: string): Promise<string[]> {
  const rows = await t.database.db.execute<{ vendor_id: string }>(
    sql`select vendor_id from vendor_discord_servers where guild_id = ${guildId}`,
  );
  return rows.rows.map((row) => row.vendor_id);
}

beforeAll(async () => {
  t = await startTestApp();
  await discordOverHttp(t);
  vendor = await makeVendor('Signal Room');
  other = await makeVendor('Other Room');
  community = await createProduct(t, vendor.id, { kind: 'community', title: 'Signal Room VIP' });
  otherCommunity = await createProduct(t, other.id, { kind: 'community', title: 'Other VIP' });
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Signal Room Server',
    roles: ['VIP', 'Member', 'Moderators'],
    managedRoles: ['Nitro Booster'],
    ownerUsername: SIGNAL_OWNER,
  });
  buyerToken = (await createBuyer(t)).token;
});
afterAll(async () => {
  await t?.deps.chat.close();
  await t?.close();
});

describe('vendor Discord set-up', () => {
  it('adds the bot through Discord’s page and records the server Discord names, and lists it', async () => {
    const { url, back, res } = await install(vendor, guild.guildId, SIGNAL_OWNER);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      scope: 'bot',
      response_type: 'code',
      permissions: String(
        PermissionFlagsBits.ManageRoles |
          PermissionFlagsBits.CreateInstantInvite |
          PermissionFlagsBits.ManageChannels |
          PermissionFlagsBits.ViewChannel |
          PermissionFlagsBits.SendMessages |
          PermissionFlagsBits.EmbedLinks |
          PermissionFlagsBits.ReadMessageHistory,
      ),
    });
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/vendor\/delivery\/discord$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    // Discord's redirect: the code, the state, and the server and permissions as hints.
    expect(`${back.origin}${back.pathname}`).toBe(
      new URL(url.searchParams.get('redirect_uri')!).href,
    );
    expect(back.searchParams.get('guild_id')).toBe(guild.guildId);
    expect(back.searchParams.get('permissions')).toBe(url.searchParams.get('permissions'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().server).toMatchObject({ id: guild.guildId, name: 'Signal Room Server' });

    const servers = await t.call(r.vendorDiscordServers, { token: vendor.token });
    expect(servers.statusCode).toBe(200);
    expect(servers.json().servers).toEqual([
      expect.objectContaining({ id: guild.guildId, name: 'Signal Room Server' }),
    ]);
    // Another vendor sees none of it.
    const foreign = await t.call(r.vendorDiscordServers, { token: other.token });
    expect(foreign.json().servers).toEqual([]);

    // Adding it again (new permissions, a renamed server) refreshes the one record.
    const again = await install(vendor, guild.guildId, SIGNAL_OWNER);
    expect(again.res.statusCode, again.res.body).toBe(200);
    expect(await holders(guild.guildId)).toEqual([vendor.id]);
  });

  it('refuses a vendor who names another vendor’s server instead of adding the bot (issue 26)', async () => {
    // The takeover: other's own install link, then the return call naming vendor's server by id.
    const link = await t.call(r.vendorDiscordInstall, { token: other.token });
    const state = new URL(link.json().url).searchParams.get('state')!;
    const named = await t.call(r.vendorDiscordInstalled, {
      token: other.token,
      query: { state, guild_id: guild.guildId },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toMatchObject({
      code: 'validation_failed',
      fields: { code: 'The Discord code is missing.' },
    });
    // A code from a server of their own does not buy someone else's: the server is Discord's word.
    const own = await seedSandboxGuild(t.database.db, {
      name: 'Other Room Server',
      roles: ['Gold'],
      ownerUsername: 'other_owner',
    });
    const { back } = await addBot(other, own.guildId, 'other_owner');
    const swapped = await t.call(r.vendorDiscordInstalled, {
      token: other.token,
      query: {
        state: back!.searchParams.get('state')!,
        code: back!.searchParams.get('code')!,
        guild_id: guild.guildId,
      },
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().server.id).toBe(own.guildId);
    expect(await holders(guild.guildId)).toEqual([vendor.id]);

    // Discord's page offers a person only servers they may manage.
    const stranger = await addBot(other, guild.guildId, 'other_owner');
    expect(stranger.res.statusCode).toBe(400);
    expect(stranger.back).toBeNull();

    // Someone who does manage it in Discord still cannot take it from the vendor who holds it.
    const taken = await install(other, guild.guildId, SIGNAL_OWNER);
    expect(taken.res.statusCode, taken.res.body).toBe(409);
    expect(taken.res.json()).toEqual({ error: m.serverTaken, code: 'conflict' });
    expect(await holders(guild.guildId)).toEqual([vendor.id]);
    const listed = await t.call(r.vendorDiscordServers, { token: other.token });
    expect(listed.json().servers.map((x: { id: string }) => x.id)).toEqual([own.guildId]);

    // And nothing of the server is theirs to read or bind.
    const roles = await rolesOf(other.token, guild.guildId);
    expect(roles.statusCode).toBe(404);
    const bound = await bind(other.token, {
      productId: otherCommunity.id,
      guildId: guild.guildId,
      roleIds: [guild.roleIds.Moderators!],
    });
    expect(bound.statusCode).toBe(404);
    expect(bound.json()).toEqual({ error: m.serverUnknown, code: 'not_found' });
    const bindings = await t.database.db.execute(
      sql`select 1 from community_bindings where guild_id = ${guild.guildId}`,
    );
    expect(bindings.rows).toEqual([]);
  });

  it('refuses a forged, a used, and a buyer’s sign-in code, recording nothing', async () => {
    const fresh = await seedSandboxGuild(t.database.db, {
      name: 'Code Check Server',
      roles: ['Gold'],
      ownerUsername: 'code_owner',
    });
    const returnWith = async (code: string) => {
      const link = await t.call(r.vendorDiscordInstall, { token: vendor.token });
      const state = new URL(link.json().url).searchParams.get('state')!;
      return t.call(r.vendorDiscordInstalled, { token: vendor.token, query: { state, code } });
    };
    const forged = await returnWith('forged-code');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: m.installCodeInvalid, code: 'bad_request' });

    // A code works once: its state spent on a failed try, and again with a fresh state.
    const { back } = await addBot(vendor, fresh.guildId, 'code_owner');
    const code = back!.searchParams.get('code')!;
    expect((await returnWith(code)).statusCode).toBe(200);
    const used = await returnWith(code);
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toBe(m.installCodeInvalid);

    // A buyer's sign-in code for the same page names no server.
    const link = new URL(
      (await t.call(r.vendorDiscordInstall, { token: vendor.token })).json().url,
    );
    const signIn = new URLSearchParams({
      client_id: link.searchParams.get('client_id')!,
      redirect_uri: link.searchParams.get('redirect_uri')!,
      response_type: 'code',
      scope: 'identify',
      state: link.searchParams.get('state')!,
      username: 'code_owner',
      decision: 'authorize',
    });
    const granted = await t.app.inject({
      method: 'POST',
      url: '/sandbox/discord/oauth2/authorize',
      payload: signIn.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
    });
    expect(granted.statusCode).toBe(303);
    const userCode = new URL(String(granted.headers.location)).searchParams.get('code')!;
    const notBot = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state: link.searchParams.get('state')!, code: userCode },
    });
    expect(notBot.statusCode).toBe(400);
    expect(notBot.json().error).toBe(m.installCodeInvalid);
    expect(await holders(fresh.guildId)).toEqual([vendor.id]);
  });

  it('refuses a return with another user’s or a spent state', async () => {
    const { back } = await addBot(vendor, guild.guildId, SIGNAL_OWNER);
    const state = back!.searchParams.get('state')!;
    const code = back!.searchParams.get('code')!;
    const stolen = await t.call(r.vendorDiscordInstalled, {
      token: other.token,
      query: { state, code },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ error: m.installStateInvalid });
    const ok = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state, code },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state, code },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(m.installStateUsed);
  });

  it('reads the roles with the problem of each, and only for the vendor’s own servers', async () => {
    const roles = await rolesOf(vendor.token, guild.guildId);
    expect(roles.statusCode, roles.body).toBe(200);
    const byName = Object.fromEntries(
      roles.json().roles.map((x: { name: string; problem: string | null }) => [x.name, x.problem]),
    );
    expect(byName.Member).toBeNull();
    expect(byName['Nitro Booster']).toMatch(/managed by an integration/);
    const foreign = await rolesOf(other.token, guild.guildId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: m.serverUnknown, code: 'not_found' });
  });

  it('lists community products with their binding; binds, rebinds and unbinds', async () => {
    await createProduct(t, vendor.id, { kind: 'indicator', title: 'Not a community' });
    const list = async () => {
      const res = await t.call(r.vendorCommunityProducts, { token: vendor.token, query: {} });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect((await list()).products).toEqual([
      expect.objectContaining({ id: community.id, title: 'Signal Room VIP', binding: null }),
    ]);

    const refused = await bind(vendor.token, {
      productId: community.id,
      guildId: guild.guildId,
      roleIds: [guild.roleIds['Nitro Booster']!],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/managed by an integration/);

    for (const role of ['VIP', 'Member']) {
      const bound = await bind(vendor.token, {
        productId: community.id,
        guildId: guild.guildId,
        roleIds: [guild.roleIds[role]!],
      });
      expect(bound.statusCode, bound.body).toBe(200);
    }
    expect((await list()).products[0].binding).toEqual({
      productId: community.id,
      server: { id: guild.guildId, name: 'Signal Room Server', iconUrl: null },
      roles: [{ id: guild.roleIds.Member, name: 'Member' }],
    });

    const removed = await unbind(vendor.token, community.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list()).products[0].binding).toBeNull();
    const twice = await unbind(vendor.token, community.id);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe(m.bindingNotFound);
  });

  it('binds only while the bot is still in the server', async () => {
    const left = await seedSandboxGuild(t.database.db, {
      name: 'Bot Left Server',
      roles: ['Gold'],
      ownerUsername: 'left_owner',
    });
    expect((await install(vendor, left.guildId, 'left_owner')).res.statusCode).toBe(200);
    const body = { productId: community.id, guildId: left.guildId, roleIds: [left.roleIds.Gold!] };
    const bound = await bind(vendor.token, body);
    expect(bound.statusCode, bound.body).toBe(200);
    // The server's owner removes the bot in Discord.
    const sandbox = t.deps.discordSandbox!;
    expect(await sandbox.kick(left.guildId, sandbox.botId)).toBe(true);
    const refused = await bind(vendor.token, body);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: m.serverUnknown, code: 'not_found' });
    const roles = await rolesOf(vendor.token, left.guildId);
    expect(roles.statusCode).toBe(404);
    await unbind(vendor.token, community.id);
  });

  it('pages the community products by title', async () => {
    const v = await makeVendor('Many Rooms');
    for (const title of ['Charlie', 'alpha', 'Bravo'])
      await createProduct(t, v.id, { kind: 'community', title });
    const first = await t.call(r.vendorCommunityProducts, {
      token: v.token,
      query: { limit: '2' },
    });
    expect(first.json().products.map((p: { title: string }) => p.title)).toEqual([
      'alpha',
      'Bravo',
    ]);
    const cursor = first.json().nextCursor as string;
    const second = await t.call(r.vendorCommunityProducts, {
      token: v.token,
      query: { limit: '2', cursor },
    });
    expect(second.json()).toMatchObject({ products: [{ title: 'Charlie' }], nextCursor: null });
    // Another vendor's cursor reads nothing of theirs.
    const foreign = await t.call(r.vendorCommunityProducts, {
      token: other.token,
      query: { cursor },
    });
    expect(foreign.json().products).toEqual([]);
  });

  it('answers 404 for another vendor’s products and servers, 400 with fields for bad input', async () => {
    const foreignProduct = await bind(vendor.token, {
      productId: otherCommunity.id,
      guildId: guild.guildId,
      roleIds: [guild.roleIds.VIP!],
    });
    expect(foreignProduct.statusCode).toBe(404);
    expect(foreignProduct.json()).toEqual({ error: m.productNotYours, code: 'not_found' });
    const foreignServer = await bind(other.token, {
      productId: otherCommunity.id,
      guildId: guild.guildId,
      roleIds: [guild.roleIds.VIP!],
    });
    expect(foreignServer.statusCode).toBe(404);
    expect(foreignServer.json().error).toBe(m.serverUnknown);
    const foreignUnbind = await unbind(other.token, community.id);
    expect(foreignUnbind.statusCode).toBe(404);

    const bad = await bind(vendor.token, { productId: community.id, guildId: 'x', roleIds: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'validation_failed',
      fields: { guildId: 'Choose a server.', roleIds: 'Choose at least one role.' },
    });
    const badPage = await t.call(r.vendorCommunityProducts, {
      token: vendor.token,
      query: { limit: '0' },
    });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().fields.limit).toBeTruthy();
  });

  it('refuses every vendor route to a buyer (403) and changes nothing', async () => {
    const calls = [
      t.call(r.vendorDiscordInstall, { token: buyerToken }),
      t.call(r.vendorDiscordInstalled, {
        token: buyerToken,
        query: { state: 'x', code: 'x' },
      }),
      t.call(r.vendorDiscordServers, { token: buyerToken }),
      t.call(r.vendorCommunityProducts, { token: buyerToken, query: {} }),
      rolesOf(buyerToken, guild.guildId),
      bind(buyerToken, {
        productId: community.id,
        guildId: guild.guildId,
        roleIds: [guild.roleIds.VIP!],
      }),
      unbind(buyerToken, community.id),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    }
  });
});
