// The buyer's side of a feed (ADR 059): channels per feed, the feed's history with where each
// alert went, and resuming a paused webhook. Only current holders may read or choose.
import {
  alertsMessages as m,
  type AlertChannels,
  type BuyerAlert,
  type SetAlertChannelsBody,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { queues } from '../../jobs/queue.ts';
import { cursorField, cursorKind } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { checkedUserUrl } from '../../platform/outbound-url.ts';
import * as store from '../../webhooks/store.ts';
import { ALERT_WEBHOOK_TYPE } from '@tradeshelf/contract';
import { buyerDiscord } from './discord.ts';
import { anyFeed, type FeedRow } from './feeds.ts';
import { accessOf, liveAccess, vendorSummaries } from './deps.ts';
import { alertsPage, BUYER_OWNER, discordPosts, type DeliveryState } from './publish.ts';
import { alertView } from './view.ts';

const ownerOf = (userId: string): store.Owner => ({ kind: BUYER_OWNER, id: userId });
const alertsCursor = cursorKind('alerts', [cursorField.count(Number.MAX_SAFE_INTEGER)]);

interface SubscriptionRow extends Record<string, unknown> {
  web: boolean;
  email: boolean;
  webhook_endpoint_id: string | null;
  discord: boolean;
}

/** The feed, when the buyer holds it now (a live entitlement); 403 otherwise. */
async function heldFeed(deps: AppDeps, userId: string, productId: string) {
  const feed = await anyFeed(deps, productId);
  if (!feed) throw new AppError('not_found', m.feedNotFound);
  const live = await liveAccess(deps.database.db, userId, [productId]);
  if (!live.length) throw new AppError('forbidden', m.notSubscribed);
  return feed;
}

async function subscriptionOf(deps: AppDeps, userId: string, productId: string) {
  const { rows } = await deps.database.db.execute<SubscriptionRow>(sql`
    select web, email, webhook_endpoint_id, discord from alert_subscriptions
    where user_id = ${userId} and product_id = ${productId}`);
  return rows[0] ?? { web: true, email: false, webhook_endpoint_id: null, discord: false };
}

async function channelsView(
  deps: AppDeps,
  userId: string,
  feed: FeedRow,
  sub: SubscriptionRow,
): Promise<AlertChannels> {
  let webhook: AlertChannels['webhook'] = null;
  if (sub.webhook_endpoint_id) {
    const e = await store.endpointOf(deps.database.db, ownerOf(userId), sub.webhook_endpoint_id);
    if (e)
      webhook = {
        url: e.url,
        paused: !e.enabled,
        consecutiveFailures: e.consecutive_failures,
        secret: deps.webhooks.openSecret(e.secret_sealed),
      };
  }
  return {
    web: sub.web,
    email: sub.email,
    webhook,
    discord: await buyerDiscord(deps, userId, feed, sub.discord),
  };
}

export async function buyerFeed(
  deps: AppDeps,
  userId: string,
  productId: string,
  query: { limit: number; cursor?: string | undefined },
) {
  const feed = await heldFeed(deps, userId, productId);
  const db = deps.database.db;
  const sub = await subscriptionOf(deps, userId, productId);
  const { page, nextCursor } = await alertsPage(deps, productId, alertsCursor, query);
  const ids = page.map((r) => r.id);
  const deliveries = ids.length
    ? (
        await db.execute<
          DeliveryState & { endpoint_id: string | null }
        >(sql`select alert_id, channel, status, reason, endpoint_id from alert_deliveries
          where user_id = ${userId} and alert_id = any(${sql.param(ids)}::text[])`)
      ).rows
    : [];
  const endpointIds = [
    ...new Set(deliveries.flatMap((d) => (d.endpoint_id ? [d.endpoint_id] : []))),
  ];
  const hooks = new Map(
    (await store.eventMessages(db, ids, endpointIds)).map((r) => [r.event_id, r]),
  );
  const channels = await channelsView(deps, userId, feed, sub);
  // The feed's Discord post is everyone's: shown to those who chose it, with whether they can read it.
  const posts = new Map(
    (sub.discord ? await discordPosts(db, ids) : []).map((p) => [p.alert_id, p]),
  );
  const discordOf = (alertId: string) => {
    const p = posts.get(alertId);
    if (!p) return [];
    const unread = p.status === 'delivered' && channels.discord && !channels.discord.readable;
    return [
      {
        channel: 'discord' as const,
        status: p.status,
        reason: unread ? channels.discord!.note : p.status === 'delivered' ? null : p.reason,
      },
    ];
  };
  const alerts: BuyerAlert[] = page.map((r) => ({
    ...alertView(r),
    deliveries: deliveries
      .filter((d) => d.alert_id === r.id)
      .sort((a, b) => a.channel.localeCompare(b.channel))
      .map((d) => {
        if (d.channel !== 'webhook')
          return { channel: d.channel, status: d.status, reason: d.reason };
        const msg = hooks.get(r.id);
        if (!msg)
          return { channel: d.channel, status: 'failed' as const, reason: 'Webhook removed' };
        return {
          channel: d.channel,
          status: msg.status === 'pending' ? ('queued' as const) : msg.status,
          reason:
            msg.last_error ??
            (msg.status === 'pending' && channels.webhook?.paused ? m.webhookPaused : null),
        };
      })
      .concat(discordOf(r.id)),
  }));
  const vendor = (await vendorSummaries(db, [feed.vendorId])).get(feed.vendorId);
  return {
    feed: { productId, title: feed.title, vendorName: vendor?.displayName ?? '' },
    channels,
    alerts,
    nextCursor,
  };
}

/** The URL as the engine will check it at delivery: https (outside local), public addresses. */
const checkedUrl = (deps: AppDeps, url: string) =>
  checkedUserUrl(
    url,
    deps.webhooks.policy,
    {
      url: m.webhookUrl,
      https: m.webhookHttps,
      refused: m.webhookRefused,
      unresolved: m.webhookUnresolved,
    },
    'webhookUrl',
  );

export async function setChannels(
  deps: AppDeps,
  userId: string,
  productId: string,
  body: SetAlertChannelsBody,
): Promise<{ channels: AlertChannels }> {
  const feed = await heldFeed(deps, userId, productId);
  const wanted = body.webhookUrl ? await checkedUrl(deps, body.webhookUrl) : null;
  const owner = ownerOf(userId);
  const sub = await deps.database.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`alert-sub:${userId}:${productId}`}))`,
    );
    const current = (
      await tx.execute<SubscriptionRow>(sql`select web, email, webhook_endpoint_id, discord
        from alert_subscriptions where user_id = ${userId} and product_id = ${productId}`)
    ).rows[0];
    const discord = body.discord ?? current?.discord ?? false;
    let endpointId = current?.webhook_endpoint_id ?? null;
    if (!wanted && endpointId) {
      await store.deleteEndpoint(tx, owner, endpointId);
      endpointId = null;
    } else if (wanted && endpointId) {
      const e = await store.endpointOf(tx, owner, endpointId);
      if (e && e.url !== wanted) await store.updateEndpoint(tx, owner, endpointId, { url: wanted });
      if (!e) endpointId = null;
    }
    if (wanted && !endpointId) {
      const { sealed } = deps.webhooks.newSecret();
      endpointId = (
        await store.insertEndpoint(
          tx,
          owner,
          {
            url: wanted,
            description: `Alerts of ${productId}`,
            eventTypes: [ALERT_WEBHOOK_TYPE],
            enabled: true,
          },
          sealed,
        )
      ).id;
    }
    const { rows } = await tx.execute<SubscriptionRow>(sql`
      insert into alert_subscriptions (user_id, product_id, web, email, webhook_endpoint_id,
        discord)
      values (${userId}, ${productId}, ${body.web}, ${body.email}, ${endpointId}, ${discord})
      on conflict (user_id, product_id) do update set web = excluded.web, email = excluded.email,
        webhook_endpoint_id = excluded.webhook_endpoint_id, discord = excluded.discord,
        updated_at = now()
      returning web, email, webhook_endpoint_id, discord`);
    return rows[0]!;
  });
  return { channels: await channelsView(deps, userId, feed, sub) };
}

/** Resumes the paused webhook (its waiting alerts go out) and sends the ones that gave up again. */
export async function retryWebhook(deps: AppDeps, userId: string, productId: string) {
  const feed = await heldFeed(deps, userId, productId);
  const sub = await subscriptionOf(deps, userId, productId);
  if (!sub.webhook_endpoint_id) throw new AppError('business_rule', m.noWebhook);
  const db = deps.database.db;
  const owner = ownerOf(userId);
  await store.updateEndpoint(db, owner, sub.webhook_endpoint_id, { enabled: true });
  const failed = await store.failedMessageIds(db, sub.webhook_endpoint_id);
  for (const id of failed) await deps.webhooks.resend(db, sub.webhook_endpoint_id, id);
  await deps.jobs.send(queues.webhooksDeliver, {});
  return { channels: await channelsView(deps, userId, feed, sub), resent: failed.length };
}

/** The alert products the buyer holds now (live `access` entitlements to products of kind alert). */
export async function heldFeeds(deps: AppDeps, userId: string) {
  const db = deps.database.db;
  const now = Date.now();
  const live = (await accessOf(db, userId)).filter(
    (e) => e.status === 'active' && (e.endsAt === null || e.endsAt.getTime() > now),
  );
  const feeds = [];
  for (const productId of new Set(live.map((e) => e.productId))) {
    const feed = await anyFeed(deps, productId);
    if (!feed) continue;
    const { rows } = await db.execute<{ last: Date | string | null }>(
      sql`select max(created_at) as last from alerts where product_id = ${productId}`,
    );
    const last = rows[0]?.last ?? null;
    feeds.push({
      productId,
      title: feed.title,
      lastAlertAt: last === null ? null : new Date(last).toISOString(),
    });
  }
  return { feeds };
}
