// Alerts in the vendor's Discord server (issue 31, ADR 059): a feed whose product is bound to a
// server's roles gets a channel only those roles read (the access engine gives them to holders and
// takes them back), and each alert is posted there once by a job.
import {
  ALERT_DISCORD_CHANNEL_SUFFIX,
  alertsMessages as m,
  type Alert,
  type AlertDiscord,
  type SetAlertDiscordBody,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { ChatError, type ChatPost } from '../../integrations/chat/port.ts';
import { queues } from '../../jobs/queue.ts';
import { backoff, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { bindingOf, discordRoleState, productBasics } from './deps.ts';
import { vendorFeed, type FeedRow } from './feeds.ts';
import { alertColumns, alertView, type AlertRow } from './view.ts';

/** Tries of one post before it shows failed (rate limits and outages; a refusal fails at once). */
export const DISCORD_POST_ATTEMPTS = 8;
/** A run holds a post this long; one that died mid-post leaves it to the sweep after that. */
const CLAIM_SECONDS = 120;

/** `#<feed-name>-alerts`, in Discord's text-channel form ("… Alerts" is not said twice). */
export function channelNameFor(title: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/(^|-)alerts$/, '')
    .slice(0, 100 - ALERT_DISCORD_CHANNEL_SUFFIX.length);
  return `${base || 'feed'}${ALERT_DISCORD_CHANNEL_SUFFIX}`;
}

/** ChatError → the vendor's answer: a refusal in Discord's words (422), an outage 503. */
function refused(field: string | null) {
  return (err: unknown): never => {
    if (err instanceof ChatError && err.kind === 'not_found' && field)
      throw new AppError('validation_failed', err.message, { [field]: err.message });
    if (err instanceof ChatError && (err.kind === 'forbidden' || err.kind === 'not_found'))
      throw new AppError('business_rule', err.message);
    if (err instanceof ChatError) throw new AppError('service_unavailable', m.discordDown);
    throw err;
  };
}

/** The feed's Discord setting, checked against Discord now (who reads the channel, what stops it). */
export async function discordSetting(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<AlertDiscord> {
  const feed = await vendorFeed(deps, vendorId, productId);
  return settingOf(deps, feed);
}

async function settingOf(deps: AppDeps, feed: FeedRow): Promise<AlertDiscord> {
  const binding = await bindingOf(deps.database.db, feed.productId);
  const none = { readers: [], everyone: false, channel: null };
  const suggestedName = channelNameFor(feed.title);
  if (!binding)
    return {
      bound: false,
      server: null,
      roles: [],
      ...none,
      problems: feed.discordChannelId ? [m.discordNotBound] : [],
      suggestedName,
    };
  const base = {
    bound: true,
    server: { id: binding.guildId, name: binding.guildName },
    roles: binding.roles,
    suggestedName,
  };
  if (!feed.discordChannelId) return { ...base, ...none, problems: [] };
  const channel = {
    id: feed.discordChannelId,
    name: feed.discordChannelName ?? feed.discordChannelId,
    url: deps.chat.channelUrl(feed.discordGuildId ?? binding.guildId, feed.discordChannelId),
  };
  if (feed.discordGuildId !== binding.guildId)
    return {
      ...base,
      ...none,
      channel,
      problems: [
        `The product is now bound to ${binding.guildName}, and #${channel.name} is in another server: create or pick a channel there.`,
      ],
    };
  try {
    const report = await deps.chat.channelReport(
      binding.guildId,
      feed.discordChannelId,
      binding.roles.map((r) => r.id),
    );
    return {
      ...base,
      channel: { ...channel, name: report.channel.name },
      readers: report.readers,
      everyone: report.everyone,
      problems: report.problems,
    };
  } catch (err) {
    if (!(err instanceof ChatError)) throw err;
    return {
      ...base,
      ...none,
      channel,
      problems: [err.retryable ? m.discordDown : err.message],
    };
  }
}

/**
 * Sets the channel: an existing text channel of the bound server (checked: it must be one), or a
 * new `#<feed-name>-alerts` only the product's roles and the bot can see. 422 when the product is
 * not bound to a server, or Discord refuses (the bot lacks a permission: the fix in words).
 */
export async function setDiscordChannel(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  body: SetAlertDiscordBody,
): Promise<AlertDiscord> {
  const feed = await vendorFeed(deps, vendorId, productId);
  const binding = await bindingOf(deps.database.db, productId);
  if (!binding) throw new AppError('business_rule', m.discordNotBound);
  const roleIds = binding.roles.map((r) => r.id);
  const channel = body.channelId
    ? (
        await deps.chat
          .channelReport(binding.guildId, body.channelId, roleIds)
          .catch(refused('channelId'))
      ).channel
    : await deps.chat
        .createChannel(binding.guildId, {
          name: channelNameFor(feed.title),
          topic: `Alerts of ${feed.title}, for its subscribers (posted by Tradeshelf).`,
          readerRoleIds: roleIds,
        })
        .catch(refused(null));
  await deps.database.db.execute(sql`update alert_feeds set discord_guild_id = ${binding.guildId},
      discord_channel_id = ${channel.id}, discord_channel_name = ${channel.name}
    where product_id = ${productId}`);
  return settingOf(deps, {
    ...feed,
    discordGuildId: binding.guildId,
    discordChannelId: channel.id,
    discordChannelName: channel.name,
  });
}

/** Stops posting; the channel stays in the server (the vendor may keep its history). */
export async function removeDiscordChannel(
  deps: AppDeps,
  vendorId: string,
  productId: string,
): Promise<AlertDiscord> {
  const feed = await vendorFeed(deps, vendorId, productId);
  await deps.database.db.execute(sql`update alert_feeds set discord_guild_id = null,
      discord_channel_id = null, discord_channel_name = null where product_id = ${productId}`);
  return settingOf(deps, {
    ...feed,
    discordGuildId: null,
    discordChannelId: null,
    discordChannelName: null,
  });
}

/**
 * In the publishing transaction: the alert's post, when the feed has a channel and its product is
 * still bound to the server (unbound, no role decides who reads the channel: nothing is posted).
 */
export async function queueDiscordPost(
  deps: AppDeps,
  tx: Tx,
  feed: FeedRow,
  alertId: string,
): Promise<void> {
  if (!feed.discordChannelId || !(await bindingOf(tx, feed.productId))) return;
  await tx.execute(sql`insert into alert_discord_posts (alert_id, channel_id, channel_name, status)
    values (${alertId}, ${feed.discordChannelId}, ${feed.discordChannelName ?? ''}, 'queued')
    on conflict (alert_id) do nothing`);
  await deps.jobs.send(queues.alertsDiscord, { alertId }, { tx });
}

const sideColor = { buy: 0x2ecc71, sell: 0xe74c3c, close: 0x95a5a6 } as const;

/** The message: a line for notifications, and a card with the alert's facts and chart. */
export function postOf(deps: AppDeps, feedTitle: string, alert: Alert): ChatPost {
  const headline = [
    alert.side?.toUpperCase(),
    alert.symbol,
    alert.price ? `@ ${alert.price}` : null,
  ]
    .filter(Boolean)
    .join(' ');
  const fields = [
    alert.symbol ? { name: 'Symbol', value: alert.symbol } : null,
    alert.side ? { name: 'Side', value: alert.side.toUpperCase() } : null,
    alert.price ? { name: 'Price', value: alert.price } : null,
  ].filter((f): f is { name: string; value: string } => f !== null);
  return {
    content: `${feedTitle}: ${headline || alert.text}`.slice(0, 2000),
    card: {
      title: (headline || feedTitle).slice(0, 256),
      text: alert.text.slice(0, 4096),
      fields,
      imageUrl: alert.imageUrl,
      url: `${publicOrigin(deps.config)}/library/alerts/${alert.productId}`,
      at: alert.createdAt,
      color: alert.side ? sideColor[alert.side] : 0x5865f2,
    },
  };
}

/** Discord's nonce is at most 25 characters: the alert's, derived, so every try sends the same. */
export const nonceOf = (alertId: string) => sha256(`alert:${alertId}`).slice(0, 25);

interface PostRow extends Record<string, unknown> {
  alert_id: string;
  channel_id: string;
  attempts: number;
}

/**
 * Posts queued alerts whose time has come: the one named (a publish's wake-up), or every due one
 * (the minute's sweep). A post is claimed first, so two runs never post it at once; a posted one
 * records its message id and is never posted again; a repeat after a crash between Discord's answer
 * and our write is answered by Discord with the first message (the nonce). Rate limits and outages
 * wait (Discord's `retry_after`, else backoff) and try again; a refusal fails with Discord's reason.
 */
export async function sendDiscordPosts(deps: AppDeps, alertId?: string): Promise<number> {
  const db = deps.database.db;
  const claimed = await db.execute<PostRow>(sql`
    update alert_discord_posts set claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}),
      attempts = attempts + 1, updated_at = now()
    where alert_id in (select alert_id from alert_discord_posts
      where status = 'queued' and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
        ${alertId ? sql`and alert_id = ${alertId}` : sql``}
      order by next_attempt_at limit 20 for update skip locked)
    returning alert_id, channel_id, attempts`);
  let sent = 0;
  for (const post of claimed.rows) {
    const found = await db.execute<AlertRow>(
      sql`select ${alertColumns} from alerts where id = ${post.alert_id}`,
    );
    const row = found.rows[0];
    if (!row) continue;
    const title = (await productBasics(db, row.product_id))?.title ?? 'Alerts';
    try {
      const message = await deps.chat.postMessage(
        post.channel_id,
        postOf(deps, title, alertView(row)),
        nonceOf(post.alert_id),
      );
      await db.execute(sql`update alert_discord_posts set status = 'delivered',
          message_id = ${message.id}, reason = null, claimed_until = null, updated_at = now()
        where alert_id = ${post.alert_id}`);
      sent++;
    } catch (err) {
      if (!(err instanceof ChatError)) throw err;
      const again = err.retryable && post.attempts < DISCORD_POST_ATTEMPTS;
      const waitMs = Math.max(err.retryAfterMs ?? 0, backoff(post.attempts, 30_000, 3_600_000));
      await db.execute(sql`update alert_discord_posts
        set status = ${again ? 'queued' : 'failed'}, reason = ${err.message},
          next_attempt_at = now() + make_interval(secs => ${again ? waitMs / 1000 : 0}),
          claimed_until = null, updated_at = now()
        where alert_id = ${post.alert_id}`);
    }
  }
  return sent;
}

/** The holder's view of the feed's channel: where it is and whether they can read it now. */
export async function buyerDiscord(
  deps: AppDeps,
  userId: string,
  feed: FeedRow,
  on: boolean,
): Promise<{
  on: boolean;
  serverName: string;
  channelName: string;
  url: string;
  readable: boolean;
  note: string;
} | null> {
  if (!feed.discordChannelId || !feed.discordGuildId) return null;
  const db = deps.database.db;
  const [binding, role] = await Promise.all([
    bindingOf(db, feed.productId),
    discordRoleState(db, userId, feed.productId),
  ]);
  if (!binding || binding.guildId !== feed.discordGuildId) return null;
  const where = `#${feed.discordChannelName ?? 'alerts'}`;
  const server = binding.guildName;
  const readable = role.state === 'active';
  const note = readable
    ? `You can read ${where} in ${server}.`
    : !role.linked
      ? `Connect your Discord account in your library: holders get the role that reads ${where} in ${server}.`
      : role.state === 'needs_join'
        ? `Join ${server} from your library to read ${where}.`
        : `Your role in ${server} is on its way (see your library); then you can read ${where}.`;
  return {
    on,
    serverName: server,
    channelName: feed.discordChannelName ?? '',
    url: deps.chat.channelUrl(feed.discordGuildId, feed.discordChannelId),
    readable,
    note,
  };
}
