import { alertsMessages as m, alertsRoutes as r, discordRoutes } from '@tradeshelf/contract';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, deliverEvent } from '../../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import {
  discordOverHttp,
  sandboxAdapter,
  sandboxControl,
  sandboxFault,
} from '../../../test/discord.ts';
import { hasPermission } from '../../integrations/chat/permissions.ts';
import {
  botRoleIdOf,
  seedSandboxGuild,
  type SandboxDiscord,
  type SeededGuild,
} from '../../integrations/chat/sandbox.ts';
import { nonceOf, sendDiscordPosts } from './discord.ts';
import { alertsJobs } from './jobs.ts';
import { queues } from '../../jobs/queue.ts';
import type { JobData } from '../../jobs/port.ts';

// A feed's Discord channel end to end: the vendor's setting through the API, the real adapter
// talking to the Discord sandbox over loopback HTTP, one post per alert by the job, the fan-out row,
// and the channel's readers decided by the role the access engine gives holders.

let t: TestApp;
let base: string;
let sandbox: SandboxDiscord;
let guild: SeededGuild;
let vendor: Awaited<ReturnType<typeof signedInVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;

beforeAll(async () => {
  // One connection, as the embedded database has: nothing may hold it while Discord answers.
  t = await startTestApp({}, { poolSize: 1 });
  base = await discordOverHttp(t);
  sandbox = t.deps.discordSandbox!;
  vendor = await signedInVendor(t, { vendorUrl: 'discord-alerts' });
  product = await createProduct(t, vendor.id, { kind: 'alert', title: 'Breakout Calls!' });
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Alert Test Traders',
    roles: ['Breakout Subscribers', 'Member'],
  });
  await t.database.db.execute(sql`insert into vendor_discord_servers (vendor_id, guild_id, name)
    values (${vendor.id}, ${guild.guildId}, 'Alert Test Traders')`);
});
afterAll(async () => {
  await t?.deps.chat.close();
  await t?.close();
});
afterEach(async () => {
  await sandboxControl(base, 'DELETE', '/_faults');
});

const setting = (token: string, productId: string) =>
  t.call(r.vendorAlertDiscord, { token, params: { productId } });
const setChannel = (channelId: string | null, productId = product.id, token = vendor.token) =>
  t.call(r.setAlertDiscord, { token, params: { productId }, body: { channelId } });
const publish = async (body: Record<string, unknown>) => {
  const res = await t.call(r.publishAlert, {
    token: vendor.token,
    params: { productId: product.id },
    body,
  });
  expect(res.statusCode, res.body).toBe(201);
  await t.jobs.settle();
  return res.json().alert as { id: string };
};
const fanOut = async (alertId: string) => {
  const res = await t.call(r.vendorAlerts, {
    token: vendor.token,
    params: { productId: product.id },
    query: { limit: '50' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const alert = (
    res.json().alerts as Array<{
      id: string;
      channels: Array<{ channel: string; queued: number; delivered: number; failed: number }>;
      failures: Array<{ channel: string; reason: string }>;
    }>
  ).find((a) => a.id === alertId)!;
  return {
    discord: alert.channels.find((c) => c.channel === 'discord')!,
    failures: alert.failures.filter((f) => f.channel === 'discord'),
  };
};
const bind = (productId: string, roleIds: string[]) =>
  t.call(discordRoutes.vendorBindCommunity, {
    token: vendor.token,
    body: { productId, guildId: guild.guildId, roleIds },
  });

let channelId: string;

describe("the feed's Discord channel setting", () => {
  it("answers 404 for another vendor's feed and changes nothing", async () => {
    const other = await signedInVendor(t);
    for (const res of [
      await setting(other.token, product.id),
      await setChannel(null, product.id, other.token),
      await t.call(r.removeAlertDiscord, {
        token: other.token,
        params: { productId: product.id },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: m.feedNotFound, code: 'not_found' });
    }
  });

  it('refuses a feed whose product is bound to no Discord server, saying how to bind it', async () => {
    const read = await setting(vendor.token, product.id);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().discord).toMatchObject({ bound: false, channel: null });
    const res = await setChannel(null);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: m.discordNotBound, code: 'business_rule' });
    const channels = await sandbox.channels(guild.guildId);
    expect(channels.map((c) => c.name)).toEqual(['general']);
  });

  it('creates #<feed-name>-alerts that only the product’s role (and the bot) can read', async () => {
    const bound = await bind(product.id, [guild.roleIds['Breakout Subscribers']!]);
    expect(bound.statusCode, bound.body).toBe(200);
    const res = await setChannel(null);
    expect(res.statusCode, res.body).toBe(200);
    const discord = res.json().discord;
    expect(discord).toMatchObject({
      bound: true,
      server: { id: guild.guildId, name: 'Alert Test Traders' },
      channel: { name: 'breakout-calls-alerts' },
      readers: ['Breakout Subscribers'],
      everyone: false,
      problems: [],
    });
    expect(discord.channel.url).toBe(
      `${base}/sandbox/discord/channels/${guild.guildId}/${discord.channel.id}`,
    );
    channelId = discord.channel.id;
    // Discord's overwrites, as stored: @everyone denied, the role reads, the bot posts.
    const stored = (await sandbox.channel(channelId))!;
    const everyone = stored.overwrites.find((o) => o.id === guild.guildId)!;
    expect(BigInt(everyone.deny) & PermissionFlagsBits.ViewChannel).toBe(
      PermissionFlagsBits.ViewChannel,
    );
    const member = (await sandbox.ensureUser('alert_not_subscriber'))!;
    await sandbox.addMember(guild.guildId, member.id, [guild.roleIds.Member!]);
    expect(await sandbox.permissionsIn(stored, member.id)).toBe(0n);
    // The workspace's list names the channel.
    const feeds = await t.call(r.vendorAlertFeeds, { token: vendor.token });
    expect(
      (feeds.json().feeds as Array<{ productId: string; discordChannel: unknown }>).find(
        (f) => f.productId === product.id,
      )!.discordChannel,
    ).toEqual({ id: channelId, name: 'breakout-calls-alerts' });
  });

  it('takes an existing channel of the server, naming what is wrong with it; refuses an unknown one', async () => {
    const general = await setChannel(guild.channelId);
    expect(general.statusCode, general.body).toBe(200);
    expect(general.json().discord.everyone).toBe(true);
    expect(general.json().discord.problems.join(' ')).toMatch(
      /Everyone in Alert Test Traders can read #general/,
    );
    const unknown = await setChannel('1234567890123456789');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed' });
    expect(unknown.json().fields.channelId).toMatch(/cannot find that channel/);
    const bad = await setChannel('general');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.channelId).toBe(m.discordChannelId);
    // Back to the alert channel: still the feed's only channel after the refusals.
    expect((await setChannel(channelId)).json().discord.channel.id).toBe(channelId);
  });
});

describe('what the bot lacks for alert channels', () => {
  it('is said in the role report (binding still works) and refuses a new channel with the fix', async () => {
    const flag = PermissionFlagsBits.ManageChannels.toString();
    const botRole = botRoleIdOf(guild.guildId);
    const toggle = (on: boolean) =>
      t.database.db.execute(sql`update sandbox_discord_roles set permissions = (case when ${on}
        then permissions::bigint | ${flag}::bigint else permissions::bigint & ~${flag}::bigint end)::text
        where id = ${botRole}::bigint`);
    await toggle(false);
    try {
      const roles = await t.call(discordRoutes.vendorDiscordRoles, {
        token: vendor.token,
        params: { id: guild.guildId },
      });
      expect(roles.statusCode, roles.body).toBe(200);
      expect(roles.json().notes.join(' ')).toMatch(
        /For alert channels the bot also needs Manage Channels in Alert Test Traders/,
      );
      expect(
        (roles.json().roles as Array<{ name: string; problem: string | null }>).find(
          (x) => x.name === 'Member',
        )!.problem,
      ).toBeNull();
      const refused = await setChannel(null);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toMatch(/needs the Manage Channels/);
    } finally {
      await toggle(true);
    }
    const roles = await t.call(discordRoutes.vendorDiscordRoles, {
      token: vendor.token,
      params: { id: guild.guildId },
    });
    expect(roles.json().notes).toEqual([]);
  });
});

describe('posting alerts to the channel', () => {
  it('posts each alert once with its card, even when the job runs again or races itself', async () => {
    const alert = await publish({ symbol: 'NVDA', side: 'buy', price: '131.2', text: 'Breakout.' });
    const messages = await sandbox.messages(channelId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      content: 'Breakout Calls!: BUY NVDA @ 131.2',
      nonce: nonceOf(alert.id),
      embeds: [
        {
          type: 'rich',
          title: 'BUY NVDA @ 131.2',
          description: 'Breakout.',
          color: 0x2ecc71,
          fields: [
            { name: 'Symbol', value: 'NVDA', inline: true },
            { name: 'Side', value: 'BUY', inline: true },
            { name: 'Price', value: '131.2', inline: true },
          ],
        },
      ],
    });
    expect((await fanOut(alert.id)).discord).toMatchObject({ delivered: 1, queued: 0, failed: 0 });

    // The job again: the post is done, nothing is sent.
    expect(await sendDiscordPosts(t.deps, alert.id)).toBe(0);
    // A run that died after Discord's answer, before our write: Discord answers the nonce with the
    // first message; two runs at once claim it once.
    await t.database.db.execute(sql`update alert_discord_posts
      set status = 'queued', message_id = null where alert_id = ${alert.id}`);
    const runs = await Promise.all([
      sendDiscordPosts(t.deps, alert.id),
      sendDiscordPosts(t.deps, alert.id),
    ]);
    expect(runs.sort()).toEqual([0, 1]);
    expect(await sandbox.messages(channelId)).toHaveLength(1);
    const post = await t.database.db.execute<{ message_id: string; status: string }>(
      sql`select message_id, status from alert_discord_posts where alert_id = ${alert.id}`,
    );
    expect(post.rows[0]).toEqual({ message_id: messages[0]!.id, status: 'delivered' });
  });

  it('shows a refusal from Discord (403) as a failed fan-out with the reason', async () => {
    await sandbox.setBotCanPost(channelId, false);
    const alert = await publish({ symbol: 'AAPL', side: 'sell', text: 'Breakdown.' });
    const { discord, failures } = await fanOut(alert.id);
    expect(discord).toMatchObject({ failed: 1, delivered: 0, queued: 0 });
    expect(failures[0]!.reason).toMatch(/may not post in the channel/);
    await sandbox.setBotCanPost(channelId, true);
    // The setting names the same problem while it lasts; now it is fixed.
    expect((await setting(vendor.token, product.id)).json().discord.problems).toEqual([]);
  });

  const limit = (retryAfter: number) =>
    sandboxFault(base, 'POST /channels/:c/messages', 429, 1, retryAfter);

  it('waits out a short rate limit in the call, and a long one (retry_after) until its time', async () => {
    await limit(0.2);
    const before = (await sandbox.messages(channelId)).length;
    const quick = await publish({ symbol: 'MSFT', text: 'Short wait.' });
    expect((await fanOut(quick.id)).discord).toMatchObject({ delivered: 1 });

    await limit(40);
    const alert = await publish({ symbol: 'TSLA', text: 'Momentum.' });
    const { discord, failures } = await fanOut(alert.id);
    expect(discord).toMatchObject({ queued: 1, delivered: 0 });
    expect(failures[0]!.reason).toMatch(/slow down/);
    const due = await t.database.db.execute<{ wait: number }>(sql`select
      extract(epoch from next_attempt_at - now())::int as wait from alert_discord_posts
      where alert_id = ${alert.id}`);
    expect(due.rows[0]!.wait).toBeGreaterThanOrEqual(35);
    // Not due yet: the sweep leaves it.
    expect(await sendDiscordPosts(t.deps)).toBe(0);
    // Once due, the sweep posts it (a worker that started since: this adapter still waits 40 s).
    const waiting = t.deps.chat;
    (t.deps as { chat: typeof waiting }).chat = sandboxAdapter(t, base);
    await waiting.close();
    await t.database.db.execute(sql`update alert_discord_posts set next_attempt_at = now()
      where alert_id = ${alert.id}`);
    // The sweep as the worker runs it: the minute's scheduled job, which pg-boss hands null.
    await alertsJobs(t.deps)[queues.alertsDiscord]!(null as unknown as JobData);
    expect(await sandbox.messages(channelId)).toHaveLength(before + 2);
    expect((await fanOut(alert.id)).discord).toMatchObject({ delivered: 1, queued: 0 });
  });
});

describe("a subscriber's Discord choice", () => {
  it('reads the channel through the role the access engine gives, and stops reading after a refund', async () => {
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    await t.jobs.settle();
    const feed = async () => {
      await t.jobs.settle();
      const res = await t.call(r.alertFeed, {
        token: buyer.token,
        params: { productId: product.id },
        query: { limit: '20' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect((await feed()).channels.discord).toMatchObject({
      on: false,
      channelName: 'breakout-calls-alerts',
      readable: false,
    });
    expect((await feed()).channels.discord.note).toMatch(/Connect your Discord account/);
    const saved = await t.call(r.setAlertChannels, {
      token: buyer.token,
      params: { productId: product.id },
      body: { web: true, email: false, webhookUrl: null, discord: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().channels.discord.on).toBe(true);

    // Link Discord as the callback page does; the engine adds them to the server with the role.
    const auth = await t.call(discordRoutes.discordAuthorize, { token: buyer.token, query: {} });
    const url = new URL(auth.json().url);
    const person = (await sandbox.ensureUser('alert_reader'))!;
    const code = await sandbox.createCode({
      userId: person.id,
      redirectUri: url.searchParams.get('redirect_uri')!,
      scopes: ['identify', 'guilds.join'],
      guildId: null,
    });
    const linked = await t.call(discordRoutes.discordOauthResponse, {
      token: buyer.token,
      query: { code, state: url.searchParams.get('state')! },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const alert = await publish({ symbol: 'AMD', side: 'buy', text: 'Go.' });
    const after = await feed();
    expect(after.channels.discord).toMatchObject({ readable: true });
    expect(after.alerts.find((a: { id: string }) => a.id === alert.id).deliveries).toContainEqual({
      channel: 'discord',
      status: 'delivered',
      reason: null,
    });
    const channel = (await sandbox.channel(channelId))!;
    const view = async () =>
      hasPermission(
        (await sandbox.permissionsIn(channel, person.id)) ?? 0n,
        PermissionFlagsBits.ViewChannel,
      );
    expect(await view()).toBe(true);

    // A refund ends the entitlement; the engine takes the role, and with it the channel.
    const refunded = await deliverEvent(t, {
      id: `evt_ref_${buyer.purchaseId}`,
      type: 'refund',
      purchaseId: buyer.purchaseId,
    });
    expect(refunded.statusCode).toBe(200);
    await t.jobs.settle();
    const member = await sandbox.member(guild.guildId, person.id);
    expect(member!.roleIds).not.toContain(guild.roleIds['Breakout Subscribers']);
    expect(await view()).toBe(false);
  });
});

describe('an alert product unbound from its server', () => {
  it('posts no more alerts to the old channel, and the setting says to bind it first', async () => {
    const before = (await sandbox.messages(channelId)).length;
    const unbound = await t.call(discordRoutes.vendorUnbindCommunity, {
      token: vendor.token,
      params: { productId: product.id },
    });
    expect(unbound.statusCode, unbound.body).toBe(200);
    const alert = await publish({ symbol: 'TSLA', side: 'sell', text: 'Unbound.' });
    await sendDiscordPosts(t.deps);
    expect(await sandbox.messages(channelId)).toHaveLength(before);
    const queued = await t.database.db.execute(
      sql`select 1 from alert_discord_posts where alert_id = ${alert.id}`,
    );
    expect(queued.rows).toHaveLength(0);
    const now = await setting(vendor.token, product.id);
    expect(now.statusCode, now.body).toBe(200);
    expect(JSON.stringify(now.json().discord)).toMatch(/[Bb]ind/);
  });
});
