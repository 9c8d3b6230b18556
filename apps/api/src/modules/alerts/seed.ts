// Demo alerts (ADR 059): Alpha Edge Labs' "Momentum Breakout Alerts" has a feed with past alerts,
// so a newcomer sees history, and a channel in the vendor's sandbox Discord server; outside
// production a sandbox signal posts one every few minutes (to the channel too).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { seedSandboxAlertChannel } from '../../integrations/chat/sandbox.ts';
import { channelNameFor } from './discord.ts';
import { anyFeed } from './feeds.ts';
import { bindingOf, productBasics, vendorIdByUrl, vendorProductRefs } from './deps.ts';
import { publishAlert } from './publish.ts';

export const DEMO_ALERT_PRODUCT = 'Momentum Breakout Alerts';

const past = [
  {
    minutesAgo: 60 * 26,
    symbol: 'NVDA',
    side: 'buy',
    price: '131.20',
    text: 'Breakout above the 20-day high on 2.1x volume.',
  },
  {
    minutesAgo: 60 * 20,
    symbol: 'MSFT',
    side: 'buy',
    price: '428.75',
    text: 'Momentum turning up from the 50-day; first target 436.',
  },
  {
    minutesAgo: 60 * 5,
    symbol: 'NVDA',
    side: 'close',
    price: '138.90',
    text: 'Target reached: take profit.',
  },
  {
    minutesAgo: 45,
    symbol: 'AAPL',
    side: 'sell',
    price: '224.10',
    text: 'Failed breakout: back below the range, momentum fading.',
  },
] as const;

/** Idempotent: the demo feed and its past alerts, once. */
export async function seedDemoAlerts(db: Db, productId: string | null): Promise<void> {
  if (!productId) return;
  const product = await productBasics(db, productId);
  if (!product || product.kind !== 'alert') return;
  await db.execute(sql`insert into alert_feeds (product_id, vendor_id)
    values (${productId}, ${product.vendorId}) on conflict do nothing`);
  // Bound to a role of the vendor's sandbox server (access's seed): its channel there, once.
  const binding = await bindingOf(db, productId);
  if (binding) {
    const name = channelNameFor(product.title);
    const { channelId } = await seedSandboxAlertChannel(db, {
      guildId: binding.guildId,
      name,
      topic: `Alerts of ${product.title}, for its subscribers (posted by Tradeshelf).`,
      readerRoleIds: binding.roles.map((r) => r.id),
    });
    await db.execute(sql`update alert_feeds set discord_guild_id = ${binding.guildId},
        discord_channel_id = ${channelId}, discord_channel_name = ${name}
      where product_id = ${productId} and discord_channel_id is null`);
  }
  const any = await db.execute(sql`select 1 from alerts where product_id = ${productId} limit 1`);
  if (any.rows.length) return;
  for (const a of past)
    await db.execute(sql`insert into alerts (id, product_id, source, symbol, side, price, text, created_at)
      values (${newId('alr')}, ${productId}, 'webhook', ${a.symbol}, ${a.side}, ${a.price}, ${a.text},
        now() - make_interval(mins => ${a.minutesAgo}))`);
}

const symbols = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'TSLA', 'AMD'];

/** The sandbox signal: one made-up breakout alert on the demo feed, sent like any other. */
export async function demoSignal(deps: AppDeps): Promise<void> {
  if (deps.config.APP_ENV === 'production') return;
  const productId = await demoFeedId(deps);
  const feed = productId ? await anyFeed(deps, productId) : null;
  if (!feed) return;
  const symbol = symbols[Math.floor(Math.random() * symbols.length)]!;
  const side = Math.random() < 0.6 ? 'buy' : 'sell';
  const price = (50 + Math.random() * 400).toFixed(2);
  await publishAlert(
    deps,
    feed,
    {
      symbol,
      side,
      price,
      text: `Sandbox signal: ${symbol} ${side === 'buy' ? 'breaking out' : 'breaking down'} on rising momentum.`,
      dedupeKey: null,
    },
    'webhook',
  );
}

/** The demo feed: Alpha Edge Labs' alert product of that title, if the demo is seeded. */
async function demoFeedId(deps: AppDeps): Promise<string | null> {
  const db = deps.database.db;
  const vendorId = await vendorIdByUrl(db, 'alpha-edge');
  if (!vendorId) return null;
  const { products } = await vendorProductRefs(db, vendorId, {
    kinds: ['alert'],
    q: DEMO_ALERT_PRODUCT,
    limit: 1,
  });
  return products[0]?.id ?? null;
}
