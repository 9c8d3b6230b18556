import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, ts } from '../../db/columns.ts';
import { productColumn, products, vendorColumn } from '../catalog/tables.ts';
import { userColumn } from '../users/tables.ts';
import { webhookEndpoints } from '../../webhooks/tables.ts';

/**
 * An alert product's feed (ADR 059), made the first time it is needed. The webhook URL's secret is
 * an HMAC of the product id and `secret_version` under the app's secret: nothing to store, and
 * "new URL" bumps the version so the old one stops working.
 */
export const alertFeeds = pgTable('alert_feeds', {
  productId: text('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  vendorId: vendorColumn(),
  secretVersion: integer('secret_version').notNull().default(1),
  /**
   * The channel in the vendor's Discord server alerts are posted to (the server the product is
   * bound to; its readers are the product's roles, given by the access engine), or null.
   */
  discordGuildId: text('discord_guild_id'),
  discordChannelId: text('discord_channel_id'),
  discordChannelName: text('discord_channel_name'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** One published alert. `seq` orders the live stream; `dedupe_key` finds replays. */
export const alerts = pgTable(
  'alerts',
  {
    id: idColumn(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    productId: refColumn('product_id', () => alertFeeds.productId),
    source: text('source', { enum: ['workspace', 'api', 'webhook'] }).notNull(),
    /** The sender's id, or a hash of the webhook body when it has none. */
    dedupeKey: text('dedupe_key'),
    symbol: text('symbol'),
    side: text('side', { enum: ['buy', 'sell', 'close'] }),
    price: text('price'),
    text: text('text').notNull(),
    /** A chart picture's public URL (the vendor's upload to this feed), or null. */
    imageUrl: text('image_url'),
    recipients: integer('recipients').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alerts_seq_idx').on(t.seq),
    index('alerts_feed_idx').on(t.productId, t.seq),
    index('alerts_dedupe_idx')
      .on(t.productId, t.dedupeKey, t.createdAt)
      .where(sql`${t.dedupeKey} is not null`),
  ],
);

/**
 * A holder's channels for one feed. No row: the defaults (web on, e-mail off, no webhook). The
 * webhook is an endpoint of the webhook engine owned by `alert-buyer:<user id>`.
 */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    userId: userColumn(),
    productId: productColumn(),
    web: boolean('web').notNull().default(true),
    email: boolean('email').notNull().default(false),
    webhookEndpointId: text('webhook_endpoint_id').references(() => webhookEndpoints.id, {
      onDelete: 'set null',
    }),
    /** Shows the feed's Discord channel among the holder's deliveries (reading it needs the role). */
    discord: boolean('discord').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index('alert_subscriptions_product_idx').on(t.productId),
  ],
);

/**
 * The fan-out: one row per alert, recipient and channel. A webhook row names its engine endpoint; the message there (event id = alert id)
 * whose state is the delivery's; e-mail rows wait `queued` for the minute's batch.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    alertId: refColumn('alert_id', () => alerts.id),
    userId: userColumn(),
    channel: text('channel', { enum: ['web', 'email', 'webhook'] }).notNull(),
    status: text('status', { enum: ['queued', 'delivered', 'failed'] }).notNull(),
    reason: text('reason'),
    /** The buyer's webhook endpoint (its engine message is the one of this alert's id). */
    endpointId: text('endpoint_id'),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.userId, t.channel] }),
    index('alert_deliveries_user_idx').on(t.userId, t.alertId),
    index('alert_deliveries_mail_idx')
      .on(t.createdAt)
      .where(sql`${t.channel} = 'email' and ${t.status} = 'queued'`),
  ],
);

/**
 * The post of one alert to its feed's Discord channel: one per alert, whoever holds the feed. Its
 * message id, once known, is what keeps a retried job from posting twice; `claimed_until` keeps two
 * runs from posting at once; `next_attempt_at` spaces retries (rate limits, outages).
 */
export const alertDiscordPosts = pgTable(
  'alert_discord_posts',
  {
    alertId: text('alert_id')
      .primaryKey()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').notNull(),
    channelName: text('channel_name').notNull(),
    status: text('status', { enum: ['queued', 'delivered', 'failed'] }).notNull(),
    reason: text('reason'),
    messageId: text('message_id'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    claimedUntil: ts('claimed_until'),
    ...timestamps(),
  },
  (t) => [
    index('alert_discord_posts_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
  ],
);
