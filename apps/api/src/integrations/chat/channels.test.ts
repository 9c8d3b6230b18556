import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  type APIMessage,
  type APITextChannel,
  type RESTPostAPIChannelMessageJSONBody,
  type RESTPostAPIGuildChannelJSONBody,
} from 'discord-api-types/v10';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { listen } from '../../../test/http.ts';
import { sandboxAdapter, sandboxControl, sandboxFault } from '../../../test/discord.ts';
import type { DiscordChat } from './discord.ts';
import { ChatError, type ChatPost } from './port.ts';
import { botRoleIdOf, seedSandboxGuild, type SandboxDiscord, type SeededGuild } from './sandbox.ts';

/*
 * Alert channels (ADR 059): the real adapter and raw Discord-shaped requests against the sandbox's
 * channel and message routes, typed with discord-api-types, with Discord's permission rules.
 */

let t: TestApp;
let base: string;
let sandbox: SandboxDiscord;
let chat: DiscordChat;
let guild: SeededGuild;

beforeAll(async () => {
  t = await startTestApp();
  base = `http://127.0.0.1:${await listen(t.app)}`;
  sandbox = t.deps.discordSandbox!;
  chat = sandboxAdapter(t, base);
  guild = await seedSandboxGuild(t.database.db, {
    name: 'Channel Test Server',
    roles: ['Subscribers', 'Member'],
  });
});
afterAll(async () => {
  await chat?.close();
  await t?.close();
});
afterEach(async () => {
  await sandboxControl(base, 'DELETE', '/_faults');
});

/** A bot-token request as Discord's API takes it. */
async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/sandbox/discord/api/v10${path}`, {
    method,
    headers: {
      authorization: `Bot ${t.config.DISCORD_BOT_TOKEN}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const post: ChatPost = {
  content: 'Breakouts: BUY NVDA @ 131.2',
  card: {
    title: 'BUY NVDA @ 131.2',
    text: 'Above the 20-day high.',
    fields: [{ name: 'Symbol', value: 'NVDA' }],
    imageUrl: 'https://example.com/chart.jpg',
    url: 'https://example.com/library/alerts/prd_1',
    at: '2026-12-01T10:00:00.000Z',
    color: 0x2ecc71,
  },
};

async function setBotPermission(flag: bigint, on: boolean) {
  const roleId = botRoleIdOf(guild.guildId);
  await t.database.db.execute(sql`update sandbox_discord_roles set permissions =
    (case when ${on} then permissions::bigint | ${flag.toString()}::bigint
      else permissions::bigint & ~${flag.toString()}::bigint end)::text
    where id = ${roleId}::bigint`);
}

describe('creating an alert channel', () => {
  it('creates a text channel hidden from @everyone, readable by the roles, with the overwrites stored', async () => {
    const roleId = guild.roleIds.Subscribers!;
    const created = await chat.createChannel(guild.guildId, {
      name: 'Breakouts Alerts',
      topic: 'Alerts',
      readerRoleIds: [roleId],
    });
    // Discord's name rules: lower case, dashes.
    expect(created).toMatchObject({ guildId: guild.guildId, name: 'breakouts-alerts' });
    const read = await api('GET', `/channels/${created.id}`);
    expect(read.status).toBe(200);
    const channel = read.json as unknown as APITextChannel;
    expect(channel.type).toBe(ChannelType.GuildText);
    expect(channel.topic).toBe('Alerts');
    const byId = new Map(channel.permission_overwrites!.map((o) => [o.id, o]));
    expect(byId.get(guild.guildId)).toMatchObject({
      type: OverwriteType.Role,
      deny: PermissionFlagsBits.ViewChannel.toString(),
    });
    expect(
      BigInt(byId.get(roleId)!.allow) &
        (PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory),
    ).toBe(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory);
    expect(byId.get(t.config.DISCORD_CLIENT_ID)).toMatchObject({ type: OverwriteType.Member });

    const report = await chat.channelReport(guild.guildId, created.id, [roleId]);
    expect(report).toMatchObject({ readers: ['Subscribers'], everyone: false, problems: [] });
    expect(chat.channelUrl(guild.guildId, created.id)).toBe(
      `${base}/sandbox/discord/channels/${guild.guildId}/${created.id}`,
    );
  });

  it('refuses without Manage Channels, and overwrites granting what the bot lacks (403 Missing Permissions)', async () => {
    await setBotPermission(PermissionFlagsBits.ManageChannels, false);
    const refused = await chat
      .createChannel(guild.guildId, { name: 'x', topic: '', readerRoleIds: [] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChatError);
    expect(refused).toMatchObject({ kind: 'forbidden' });
    expect((refused as ChatError).message).toMatch(/Manage Channels/);
    await setBotPermission(PermissionFlagsBits.ManageChannels, true);

    const body = {
      name: 'admin-only',
      type: ChannelType.GuildText,
      permission_overwrites: [
        {
          id: guild.roleIds.Member!,
          type: OverwriteType.Role,
          allow: PermissionFlagsBits.Administrator.toString(),
        },
      ],
    } satisfies RESTPostAPIGuildChannelJSONBody;
    const res = await api('POST', `/guilds/${guild.guildId}/channels`, body);
    expect(res).toEqual({
      status: 403,
      json: { message: 'Missing Permissions', code: RESTJSONErrorCodes.MissingPermissions },
    });
    const unknownRole = await api('POST', `/guilds/${guild.guildId}/channels`, {
      name: 'x',
      permission_overwrites: [{ id: '1', type: 0, allow: '1024' }],
    });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.json.code).toBe(50035);
  });

  it('reports a channel everyone reads, and one that is not a text channel of the server', async () => {
    const report = await chat.channelReport(guild.guildId, guild.channelId, [
      guild.roleIds.Subscribers!,
    ]);
    expect(report.everyone).toBe(true);
    expect(report.problems.join(' ')).toMatch(/Everyone in Channel Test Server can read #general/);
    const other = await seedSandboxGuild(t.database.db, { name: 'Other Server', roles: [] });
    await expect(chat.channelReport(guild.guildId, other.channelId, [])).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      chat.channelReport(guild.guildId, '1234567890123456789', []),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('posting a message', () => {
  it('stores the message with its embed; the same nonce answers the first message', async () => {
    const channel = await chat.createChannel(guild.guildId, {
      name: 'posts',
      topic: '',
      readerRoleIds: [guild.roleIds.Subscribers!],
    });
    const first = await chat.postMessage(channel.id, post, 'nonce-1');
    const again = await chat.postMessage(channel.id, post, 'nonce-1');
    expect(again.id).toBe(first.id);
    const stored = await sandbox.messages(channel.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.embeds).toEqual([
      {
        type: 'rich',
        title: 'BUY NVDA @ 131.2',
        description: 'Above the 20-day high.',
        url: 'https://example.com/library/alerts/prd_1',
        timestamp: '2026-12-01T10:00:00.000Z',
        color: 0x2ecc71,
        fields: [{ name: 'Symbol', value: 'NVDA', inline: true }],
        image: { url: 'https://example.com/chart.jpg' },
      },
    ]);
    // Without enforce_nonce Discord does not dedupe: a second message.
    const body = {
      content: 'plain',
      nonce: 'nonce-1',
    } satisfies RESTPostAPIChannelMessageJSONBody;
    const raw = await api('POST', `/channels/${channel.id}/messages`, body);
    expect(raw.status).toBe(200);
    const message = raw.json as unknown as APIMessage;
    expect(message).toMatchObject({ channel_id: channel.id, content: 'plain', nonce: 'nonce-1' });
    expect(message.author.bot).toBe(true);
    expect(await sandbox.messages(channel.id)).toHaveLength(2);
    expect(await api('POST', `/channels/${channel.id}/messages`, { content: ' ' })).toEqual({
      status: 400,
      json: { message: 'Cannot send an empty message', code: 50006 },
    });
  });

  it('maps Discord refusals: Missing Permissions, Missing Access, Unknown Channel, 429 with retry_after', async () => {
    const channel = await chat.createChannel(guild.guildId, {
      name: 'refusals',
      topic: '',
      readerRoleIds: [],
    });
    await sandbox.setBotCanPost(channel.id, false);
    const denied = await chat.postMessage(channel.id, post, 'n2').catch((e: unknown) => e);
    expect(denied).toMatchObject({ kind: 'forbidden' });
    expect((denied as ChatError).message).toMatch(/Send Messages/);
    expect(await api('POST', `/channels/${channel.id}/messages`, { content: 'x' })).toMatchObject({
      status: 403,
      json: { code: RESTJSONErrorCodes.MissingPermissions },
    });
    await sandbox.setBotCanPost(channel.id, true);

    // A channel hidden from the bot: Discord answers Missing Access.
    const hidden = await sandbox.createChannel({
      guildId: guild.guildId,
      name: 'hidden',
      topic: null,
      overwrites: [
        {
          id: botRoleIdOf(guild.guildId),
          type: 0,
          allow: '0',
          deny: PermissionFlagsBits.ViewChannel.toString(),
        },
      ],
    });
    expect(await api('POST', `/channels/${hidden.id}/messages`, { content: 'x' })).toMatchObject({
      status: 403,
      json: { code: RESTJSONErrorCodes.MissingAccess },
    });
    await expect(chat.postMessage(hidden.id, post, 'n3')).rejects.toMatchObject({
      kind: 'forbidden',
    });

    await expect(chat.postMessage('1234567890123456789', post, 'n4')).rejects.toMatchObject({
      kind: 'not_found',
      message: 'That Discord channel no longer exists.',
    });

    await sandboxFault(base, 'POST /channels/:c/messages', 429, 1, 30);
    const limited = await chat.postMessage(channel.id, post, 'n5').catch((e: unknown) => e);
    expect(limited).toMatchObject({ kind: 'rate_limited' });
    expect((limited as ChatError).retryAfterMs).toBeGreaterThanOrEqual(29_000);
  });

  it('drops embeds when the bot lacks Embed Links, as Discord does, and reports it', async () => {
    const channel = await chat.createChannel(guild.guildId, {
      name: 'no-embeds',
      topic: '',
      readerRoleIds: [guild.roleIds.Subscribers!],
    });
    // The bot's own overwrite allows Embed Links: deny it there.
    const stored = (await sandbox.channel(channel.id))!;
    const overwrites = stored.overwrites.map((o) =>
      o.type === 1
        ? { ...o, allow: (BigInt(o.allow) & ~PermissionFlagsBits.EmbedLinks).toString() }
        : o,
    );
    await setBotPermission(PermissionFlagsBits.EmbedLinks, false);
    await t.database.db.execute(sql`update sandbox_discord_channels
      set overwrites = ${JSON.stringify(overwrites)}::jsonb where id = ${channel.id}::bigint`);
    const fresh = sandboxAdapter(t, base);
    try {
      await fresh.postMessage(channel.id, post, 'n6');
      expect((await sandbox.messages(channel.id))[0]!.embeds).toEqual([]);
      const report = await fresh.channelReport(guild.guildId, channel.id, []);
      expect(report.problems.join(' ')).toMatch(/Embed Links/);
    } finally {
      await fresh.close();
      await setBotPermission(PermissionFlagsBits.EmbedLinks, true);
    }
  });
});
