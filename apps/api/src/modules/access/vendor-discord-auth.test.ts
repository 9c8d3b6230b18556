import { discordMessages as m, discordRoutes as r } from '@tradeshelf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createBuyer } from '../../../test/factories/orders.ts';
import { createUser } from '../../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { listen } from '../../../test/http.ts';
import { DiscordChat } from '../../integrations/chat/discord.ts';
import type { ChatProvider } from '../../integrations/chat/port.ts';
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

async function makeVendor(name: string): Promise<Vendor> {
  const owner = await createUser(t, { roles: ['buyer', 'vendor'] });
  const v = await createVendor(t, { userId: owner.id, displayName: name });
  const token = await t.deps.tokens.sign({
    sub: owner.id,
    email: owner.email,
    roles: ['buyer', 'vendor'],
  });
  return { id: v.id, token };
}

/** Adds the bot through the install link and the return call, as the Discord page does. */
async function install(v: Vendor, guildId: string) {
  const link = await t.call(r.vendorDiscordInstall, { token: v.token });
  expect(link.statusCode, link.body).toBe(200);
  const url = new URL(link.json().url);
  const state = url.searchParams.get('state')!;
  return {
    url,
    state,
    res: await t.call(r.vendorDiscordInstalled, {
      token: v.token,
      query: { state, guild_id: guildId },
    }),
  };
}

beforeAll(async () => {
  t = await startTestApp();
  const base = `http://127.0.0.1:${await listen(t.app)}`;
  (t.deps as { chat: ChatProvider }).chat = new DiscordChat({
    name: 'sandbox',
    apiUrl: `${base}/sandbox/discord/api`,
    webUrl: `${base}/sandbox/discord`,
    inviteUrl: `${base}/sandbox/discord/invite`,
    clientId: t.config.DISCORD_CLIENT_ID,
    clientSecret: t.config.DISCORD_CLIENT_SECRET,
    botToken: t.config.DISCORD_BOT_TOKEN,
    memberEvents: t.deps.discordSandbox!,
  });
  vendor = await makeVendor('Signal Room');
  other = await makeVendor('Other Room');
  community = await createProduct(t, vendor.id, { kind: 'community', title: 'Signal Room VIP' });
  otherCommunity = await createProduct(t, other.id, { kind: 'community', title: 'Other VIP' });
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Signal Room Server',
    roles: ['VIP', 'Member'],
    managedRoles: ['Nitro Booster'],
  });
  buyerToken = (await createBuyer(t)).token;
});
afterAll(async () => {
  await t?.deps.chat.close();
  await t?.close();
});

describe('vendor Discord set-up', () => {
  it('sends Discord back to the workspace page, records the server once, and lists it', async () => {
    const { url, res } = await install(vendor, guild.guildId);
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/vendor\/delivery\/discord$/);
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
  });

  it('refuses a return with another user’s or a spent state', async () => {
    const link = await t.call(r.vendorDiscordInstall, { token: vendor.token });
    const state = new URL(link.json().url).searchParams.get('state')!;
    const stolen = await t.call(r.vendorDiscordInstalled, {
      token: other.token,
      query: { state, guild_id: guild.guildId },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ error: m.stateInvalid });
    const ok = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state, guild_id: guild.guildId },
    });
    expect(ok.statusCode).toBe(200);
    const again = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state, guild_id: guild.guildId },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(m.stateUsed);
    const bad = await t.call(r.vendorDiscordInstalled, {
      token: vendor.token,
      query: { state, guild_id: 'not-a-server' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.guild_id).toBe('The server id is missing.');
  });

  it('reads the roles with the problem of each, and only for the vendor’s own servers', async () => {
    const roles = await t.call(r.vendorDiscordRoles, {
      token: vendor.token,
      params: { id: guild.guildId },
    });
    expect(roles.statusCode, roles.body).toBe(200);
    const byName = Object.fromEntries(
      roles.json().roles.map((x: { name: string; problem: string | null }) => [x.name, x.problem]),
    );
    expect(byName.Member).toBeNull();
    expect(byName['Nitro Booster']).toMatch(/managed by an integration/);
    const foreign = await t.call(r.vendorDiscordRoles, {
      token: other.token,
      params: { id: guild.guildId },
    });
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

    const refused = await t.call(r.vendorBindCommunity, {
      token: vendor.token,
      body: {
        productId: community.id,
        guildId: guild.guildId,
        roleIds: [guild.roleIds['Nitro Booster']!],
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/managed by an integration/);

    for (const role of ['VIP', 'Member']) {
      const bound = await t.call(r.vendorBindCommunity, {
        token: vendor.token,
        body: { productId: community.id, guildId: guild.guildId, roleIds: [guild.roleIds[role]!] },
      });
      expect(bound.statusCode, bound.body).toBe(200);
    }
    expect((await list()).products[0].binding).toEqual({
      productId: community.id,
      server: { id: guild.guildId, name: 'Signal Room Server', iconUrl: null },
      roles: [{ id: guild.roleIds.Member, name: 'Member' }],
    });

    const removed = await t.call(r.vendorUnbindCommunity, {
      token: vendor.token,
      params: { productId: community.id },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list()).products[0].binding).toBeNull();
    const twice = await t.call(r.vendorUnbindCommunity, {
      token: vendor.token,
      params: { productId: community.id },
    });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe(m.bindingNotFound);
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
    const foreignProduct = await t.call(r.vendorBindCommunity, {
      token: vendor.token,
      body: { productId: otherCommunity.id, guildId: guild.guildId, roleIds: [guild.roleIds.VIP!] },
    });
    expect(foreignProduct.statusCode).toBe(404);
    expect(foreignProduct.json()).toEqual({ error: m.productNotYours, code: 'not_found' });
    const foreignServer = await t.call(r.vendorBindCommunity, {
      token: other.token,
      body: { productId: otherCommunity.id, guildId: guild.guildId, roleIds: [guild.roleIds.VIP!] },
    });
    expect(foreignServer.statusCode).toBe(404);
    expect(foreignServer.json().error).toBe(m.serverUnknown);
    const foreignUnbind = await t.call(r.vendorUnbindCommunity, {
      token: other.token,
      params: { productId: community.id },
    });
    expect(foreignUnbind.statusCode).toBe(404);

    const bad = await t.call(r.vendorBindCommunity, {
      token: vendor.token,
      body: { productId: community.id, guildId: 'x', roleIds: [] },
    });
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
        query: { state: 'x', guild_id: guild.guildId },
      }),
      t.call(r.vendorDiscordServers, { token: buyerToken }),
      t.call(r.vendorCommunityProducts, { token: buyerToken, query: {} }),
      t.call(r.vendorDiscordRoles, { token: buyerToken, params: { id: guild.guildId } }),
      t.call(r.vendorBindCommunity, {
        token: buyerToken,
        body: { productId: community.id, guildId: guild.guildId, roleIds: [guild.roleIds.VIP!] },
      }),
      t.call(r.vendorUnbindCommunity, { token: buyerToken, params: { productId: community.id } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    }
  });
});
