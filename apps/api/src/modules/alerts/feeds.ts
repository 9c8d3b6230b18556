// An alert product's feed (ADR 059): made the first time it is needed, with a secret webhook URL
// whose secret is derived, not stored (an HMAC of the product id and the feed's secret version).
import { alertsMessages as m, type AlertFeed } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { hmac, safeEqual } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { liveHolders, productBasics, vendorProductOfKind, vendorProductRefs } from './deps.ts';

export interface FeedRow extends FeedState {
  productId: string;
  vendorId: string;
  title: string;
  isActive: boolean;
}

/** What the feed row itself holds. */
export interface FeedState {
  secretVersion: number;
  /** The Discord channel alerts are posted to (ADR 059), or null. */
  discordGuildId: string | null;
  discordChannelId: string | null;
  discordChannelName: string | null;
}

export const hookSecret = (deps: AppDeps, productId: string, version: number) =>
  hmac(`alert-hooks:${deps.config.CODE_SECRET}`, `${productId}:${version}`).slice(0, 40);

export const hookUrl = (deps: AppDeps, feed: Pick<FeedRow, 'productId' | 'secretVersion'>) =>
  `${publicOrigin(deps.config)}/api/v1/alert-hooks/${feed.productId}/${hookSecret(deps, feed.productId, feed.secretVersion)}`;

/** The feed row, made now if the product is an alert product that has none yet. */
async function ensureFeed(db: Db | Tx, productId: string, vendorId: string): Promise<FeedState> {
  const { rows } = await db.execute<{
    secret_version: number;
    discord_guild_id: string | null;
    discord_channel_id: string | null;
    discord_channel_name: string | null;
  }>(sql`
    insert into alert_feeds (product_id, vendor_id) values (${productId}, ${vendorId})
    on conflict (product_id) do update set product_id = excluded.product_id
    returning secret_version, discord_guild_id, discord_channel_id, discord_channel_name`);
  const r = rows[0]!;
  return {
    secretVersion: r.secret_version,
    discordGuildId: r.discord_guild_id,
    discordChannelId: r.discord_channel_id,
    discordChannelName: r.discord_channel_name,
  };
}

/** One of the vendor's alert products as a feed; 404 when it is not the vendor's or not alerts. */
export async function vendorFeed(deps: AppDeps, vendorId: string, productId: string) {
  const db = deps.database.db;
  const product = await vendorProductOfKind(db, vendorId, productId, 'alert');
  if (!product) throw new AppError('not_found', m.feedNotFound);
  return {
    productId,
    vendorId,
    title: product.title,
    isActive: product.isActive,
    ...(await ensureFeed(db, productId, vendorId)),
  } satisfies FeedRow;
}

/** Any alert product as a feed, whoever sells it (the webhook and the buyer's side). */
export async function anyFeed(deps: AppDeps, productId: string): Promise<FeedRow | null> {
  const db = deps.database.db;
  const product = await productBasics(db, productId);
  if (!product || product.kind !== 'alert') return null;
  return {
    productId,
    vendorId: product.vendorId,
    title: product.title,
    isActive: product.isActive,
    ...(await ensureFeed(db, productId, product.vendorId)),
  };
}

/** The feed a webhook URL names, when its secret is right (compared in constant time). */
export async function feedOfHook(
  deps: AppDeps,
  productId: string,
  secret: string,
): Promise<FeedRow> {
  const feed = await anyFeed(deps, productId);
  // Compared even for an unknown feed, so the answer takes as long either way.
  const expected = hookSecret(deps, productId, feed?.secretVersion ?? 0);
  if (!safeEqual(expected, secret) || !feed) throw new AppError('not_found', m.badSecret);
  return feed;
}

async function feedView(deps: AppDeps, feed: FeedRow): Promise<AlertFeed> {
  const db = deps.database.db;
  const [holders, last] = await Promise.all([
    liveHolders(db, feed.productId),
    db.execute<{ at: Date | string | null }>(
      sql`select max(created_at) as at from alerts where product_id = ${feed.productId}`,
    ),
  ]);
  const at = last.rows[0]?.at ?? null;
  return {
    productId: feed.productId,
    title: feed.title,
    isActive: feed.isActive,
    webhookUrl: hookUrl(deps, feed),
    subscribers: holders.length,
    lastAlertAt: at === null ? null : new Date(at).toISOString(),
    discordChannel: feed.discordChannelId
      ? { id: feed.discordChannelId, name: feed.discordChannelName ?? feed.discordChannelId }
      : null,
  };
}

export async function vendorFeeds(deps: AppDeps, vendorId: string): Promise<AlertFeed[]> {
  const { products } = await vendorProductRefs(deps.database.db, vendorId, {
    kinds: ['alert'],
    limit: 100,
  });
  const feeds: AlertFeed[] = [];
  for (const p of products) {
    feeds.push(
      await feedView(deps, {
        productId: p.id,
        vendorId,
        title: p.title,
        isActive: p.isActive,
        ...(await ensureFeed(deps.database.db, p.id, vendorId)),
      }),
    );
  }
  return feeds;
}

export async function rotateHook(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<AlertFeed> {
  const feed = await vendorFeed(deps, vendorId, productId);
  const { rows } = await deps.database.db.execute<{ secret_version: number }>(sql`
    update alert_feeds set secret_version = secret_version + 1 where product_id = ${productId}
    returning secret_version`);
  return feedView(deps, { ...feed, secretVersion: rows[0]!.secret_version });
}
