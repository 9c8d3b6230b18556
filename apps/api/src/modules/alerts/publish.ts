// Publishing an alert (ADR 059): replays within the window are answered, not sent; a feed is
// limited per minute; the alert and its whole fan-out (one row per current holder and channel,
// the webhook engine's messages) are written in one transaction, so a crash sends all or nothing.
import {
  ALERT_WEBHOOK_TYPE,
  type Alert,
  type AlertChannel,
  type AlertDeliveryStatus,
  type AlertSide,
  type AlertSource,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { newId } from '../../lib.ts';
import { pageOf, type CursorKind } from '../../platform/cursor.ts';
import type { FeedRow } from './feeds.ts';
import { queueDiscordPost } from './discord.ts';
import { alertColumns, alertView, type AlertRow } from './view.ts';
import { imageOfFeed } from './images.ts';
import { liveHolders } from './deps.ts';

export interface AlertInput {
  symbol: string;
  side: AlertSide | null;
  price: string;
  text: string;
  /** A chart picture added to the feed (`imageId`), checked by the publish. */
  image?: string | null;
  /** The sender's id, or (webhook bodies without one) a hash of the body. */
  dedupeKey: string | null;
}

/** The engine's owner kind for buyers' alert webhooks. */
export const BUYER_OWNER = 'alert-buyer';

export interface Published {
  alert: Alert;
  duplicate: boolean;
  recipients: number;
}

export async function publishAlert(
  deps: AppDeps,
  feed: FeedRow,
  input: AlertInput,
  source: AlertSource,
): Promise<Published> {
  await deps.limiter.consume([
    {
      rule: {
        name: 'alerts:feed',
        limit: deps.config.ALERTS_PER_FEED_PER_MINUTE,
        windowSeconds: 60,
      },
      key: feed.productId,
    },
  ]);
  const imageUrl = input.image ? await imageOfFeed(deps, feed, input.image) : null;
  const result = await deps.database.db.transaction(async (tx) => {
    // One publish per feed at a time: a replay racing its original finds it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`alerts:${feed.productId}`}))`);
    if (input.dedupeKey !== null) {
      const seen = (
        await tx.execute<AlertRow>(sql`select ${alertColumns} from alerts
          where product_id = ${feed.productId} and dedupe_key = ${input.dedupeKey}
            and created_at > now() - make_interval(mins => ${deps.config.ALERTS_REPLAY_MINUTES})
          order by created_at desc limit 1`)
      ).rows[0];
      if (seen)
        return { alert: alertView(seen), duplicate: true, recipients: Number(seen.recipients) };
    }
    const row = (
      await tx.execute<AlertRow>(sql`insert into alerts (id, product_id, source, dedupe_key, symbol,
          side, price, text, image_url)
        values (${newId('alr')}, ${feed.productId}, ${source}, ${input.dedupeKey},
          ${input.symbol || null}, ${input.side}, ${input.price || null}, ${input.text}, ${imageUrl})
        returning ${alertColumns}`)
    ).rows[0]!;
    const alert = alertView(row);
    const recipients = await fanOut(deps, tx, feed, alert);
    // The feed's Discord channel gets one post, whoever holds the feed: its role decides who reads.
    await queueDiscordPost(deps, tx, feed, alert.id);
    await tx.execute(sql`update alerts set recipients = ${recipients} where id = ${alert.id}`);
    return { alert, duplicate: false, recipients };
  });
  return result;
}

/**
 * Writes one delivery per current holder and channel. Entitlement decides who: the access module's
 * live holders (refunded, disputed, revoked and lapsed access is not there; a trial is until it ends).
 */
async function fanOut(deps: AppDeps, tx: Tx, feed: FeedRow, alert: Alert): Promise<number> {
  const holders = (await liveHolders(tx, feed.productId)).map((h) => h.userId);
  if (!holders.length) return 0;
  const holderList = sql.param(holders);
  // Web for everyone without a row (the default), e-mail and webhooks for those who chose them.
  await tx.execute(sql`
    insert into alert_deliveries (alert_id, user_id, channel, status, endpoint_id)
    select ${alert.id}, h.user_id, c.channel,
      case when c.channel = 'email' then 'queued' when c.channel = 'web' then 'delivered'
        else 'queued' end,
      case when c.channel = 'webhook' then s.webhook_endpoint_id end
    from unnest(${holderList}::text[]) as h (user_id)
    left join alert_subscriptions s on s.user_id = h.user_id and s.product_id = ${feed.productId}
    cross join lateral (values ('web'), ('email'), ('webhook')) as c (channel)
    where (c.channel = 'web' and coalesce(s.web, true))
      or (c.channel = 'email' and coalesce(s.email, false))
      or (c.channel = 'webhook' and s.webhook_endpoint_id is not null)`);
  const endpoints = await tx.execute<{ endpoint_id: string }>(sql`
    select webhook_endpoint_id as endpoint_id from alert_subscriptions
    where product_id = ${feed.productId} and webhook_endpoint_id is not null
      and user_id = any(${holderList}::text[])`);
  if (endpoints.rows.length)
    await deps.webhooks.enqueue(
      tx,
      endpoints.rows.map((r) => r.endpoint_id),
      {
        eventId: alert.id,
        type: ALERT_WEBHOOK_TYPE,
        version: 1,
        objectKey: `alert-feed:${feed.productId}`,
        createdAt: alert.createdAt,
        data: { feed: { productId: feed.productId, title: feed.title }, alert },
      },
    );
  const mails = await tx.execute(sql`select 1 from alert_deliveries
    where alert_id = ${alert.id} and channel = 'email' limit 1`);
  if (mails.rows.length) await deps.jobs.send(queues.alertsMail, {}, { tx });
  return holders.length;
}

/** A feed's alerts newest first, a page at a time (the buyer's and the vendor's views; own cursors). */
export async function alertsPage(
  deps: AppDeps,
  productId: string,
  kind: CursorKind<[number]>,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ page: Array<AlertRow & { seq: number }>; nextCursor: string | null }> {
  const before = query.cursor ? deps.cursors.decode(kind, query.cursor)[0] : null;
  const { rows } = await deps.database.db.execute<AlertRow & { seq: number }>(sql`
    select ${alertColumns}, seq from alerts where product_id = ${productId}
      ${before !== null ? sql`and seq < ${before}` : sql``}
    order by seq desc limit ${query.limit + 1}`);
  return pageOf(rows, query.limit, (last) => deps.cursors.encode(kind, [Number(last.seq)]));
}

/** How an alert went out on one channel: to one holder (`alert_deliveries`) or to the feed's Discord channel. */
export type DeliveryState = {
  alert_id: string;
  channel: AlertChannel;
  status: AlertDeliveryStatus;
  reason: string | null;
};

/** The Discord channel's posts of these alerts: one per alert, whoever holds the feed. */
export async function discordPosts(db: Db, alertIds: string[]) {
  if (!alertIds.length) return [];
  const posts = await db.execute<Omit<DeliveryState, 'channel'>>(
    sql`select alert_id, status, reason from alert_discord_posts
      where alert_id = any(${sql.param(alertIds)}::text[])`,
  );
  return posts.rows;
}
