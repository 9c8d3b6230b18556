import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { discordOverHttp } from '../../../test/discord.ts';
import { useDemoApp } from '../../../test/demo.ts';
import { describeChannel } from '../../integrations/chat/permissions.ts';
import { DEMO_ALERT_PRODUCT, demoSignal } from './seed.ts';

// The demo on first start: Alpha Edge Labs' alert feed posts to its channel in the vendor's
// sandbox Discord server, which only the alert product's role reads (ADR 059).

const t = useDemoApp();
// The chat adapter's own connections end before the app closes.
afterAll(() => t.deps.chat.close());

it('gives the demo alert feed a channel in its vendor’s server that the sandbox signal posts to', async () => {
  await discordOverHttp(t);
  const feed = await t.database.db.execute<{
    product_id: string;
    discord_guild_id: string;
    discord_channel_id: string;
    discord_channel_name: string;
  }>(sql`select f.product_id, f.discord_guild_id, f.discord_channel_id, f.discord_channel_name
    from alert_feeds f join products p on p.id = f.product_id
    where p.title = ${DEMO_ALERT_PRODUCT}`);
  const row = feed.rows[0]!;
  expect(row.discord_channel_name).toBe('momentum-breakout-alerts');
  const sandbox = t.deps.discordSandbox!;
  const guild = (await sandbox.guild(row.discord_guild_id))!;
  expect(guild.name).toBe('Alpha Edge Labs Community');
  const channel = (await sandbox.channel(row.discord_channel_id))!;
  const report = describeChannel(
    guild,
    await sandbox.roles(guild.id),
    await sandbox.member(guild.id, sandbox.botId),
    channel,
    channel.overwrites,
    [],
  );
  expect(report).toMatchObject({ readers: [DEMO_ALERT_PRODUCT], everyone: false, problems: [] });

  await demoSignal(t.deps);
  await t.jobs.settle();
  const [message] = await sandbox.messages(channel.id);
  expect(message!.content).toMatch(/^Momentum Breakout Alerts: (BUY|SELL) /);
});
