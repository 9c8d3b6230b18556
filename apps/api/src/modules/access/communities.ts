// Use cases: a buyer's communities with their health (the library), and reconnecting one now.
import { discordMessages as m, type AccessHealth, type Community } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries } from '../catalog/index.ts';
import { queueConverge } from './converge-queue.ts';
import { convergeUser, NOT_BOUND_REASON, type DeliveryState } from './converge.ts';

/** An invite lives a day; a fresh one is made when the buyer comes back later. */
const INVITE_TTL_SECONDS = 86_400;

interface Row extends Record<string, unknown> {
  id: string;
  purchase_id: string;
  product_id: string;
  live: boolean;
  ended_reason: string | null;
  guild_id: string | null;
  guild_name: string | null;
  guild_icon_url: string | null;
  roles: Array<{ id: string; name: string }> | null;
  state: DeliveryState | null;
  reason: string | null;
  next_retry_at: Date | string | null;
  invite_url: string | null;
  invite_expires_at: Date | string | null;
  checked_at: Date | string | null;
}

const endedWords: Record<string, string> = {
  refunded: 'Ended: the purchase was refunded.',
  disputed: 'Ended: the payment was disputed.',
  subscription_ended: 'Ended: the subscription ended.',
  revoked: 'Ended: the vendor removed this access.',
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function healthOf(r: Row): AccessHealth {
  const base = { nextRetryAt: null, endedReason: null };
  if (!r.live) {
    const why = r.ended_reason ?? 'ended';
    return { ...base, status: 'ended', message: endedWords[why] ?? 'Ended.', endedReason: why };
  }
  switch (r.state) {
    case 'active':
      return { ...base, status: 'active', message: m.active };
    case 'needs_link':
      return { ...base, status: 'needs_link', message: m.connect };
    case 'needs_join':
      return { ...base, status: 'needs_join', message: m.join };
    case 'failing':
      return {
        ...base,
        status: 'failing',
        message: r.reason ?? m.discordDown,
        nextRetryAt: iso(r.next_retry_at),
      };
    default:
      return {
        ...base,
        status: 'granting',
        message: r.reason === NOT_BOUND_REASON ? m.notBound : m.granting,
      };
  }
}

async function load(deps: AppDeps, userId: string, only: string | null): Promise<Row[]> {
  const found = await deps.database.db.execute<Row>(sql`
    select e.id, e.purchase_id, e.product_id, e.ended_reason,
      (e.status = 'active' and (e.ends_at is null or e.ends_at > now())) as live,
      b.guild_id, b.guild_name, b.guild_icon_url, b.roles,
      d.state, d.reason, d.next_retry_at, d.invite_url, d.invite_expires_at, d.checked_at
    from entitlements e
      left join community_bindings b on b.product_id = e.product_id
      left join access_deliveries d on d.entitlement_id = e.id
    where e.user_id = ${userId} and e.kind = 'discord_role' ${only ? sql`and e.id = ${only}` : sql``}
    order by e.created_at desc, e.id desc`);
  return found.rows;
}

/** A live invite for a buyer who must join by hand, made once and reused until it expires. */
async function inviteFor(deps: AppDeps, r: Row): Promise<Community['invite']> {
  if (!r.live || r.state !== 'needs_join' || !r.guild_id) return null;
  const expires = r.invite_expires_at ? new Date(r.invite_expires_at) : null;
  if (r.invite_url && expires && expires.getTime() > Date.now() + 60_000)
    return { url: r.invite_url, expiresAt: expires.toISOString() };
  try {
    const invite = await deps.chat.createInvite(r.guild_id, INVITE_TTL_SECONDS);
    await deps.database.db.execute(sql`update access_deliveries
      set invite_url = ${invite.url}, invite_expires_at = ${invite.expiresAt}
      where entitlement_id = ${r.id}`);
    return { url: invite.url, expiresAt: invite.expiresAt.toISOString() };
  } catch {
    return null; // the card still offers Reconnect; the next visit tries again
  }
}

async function present(deps: AppDeps, rows: Row[]): Promise<Community[]> {
  if (!rows.length) return [];
  const db = deps.database.db;
  const products = await itemSummaries(
    db,
    rows.map((r) => ({ type: 'product' as const, id: r.product_id })),
  );
  const history = await db.execute<{
    entitlement_id: string;
    type: string;
    detail: string;
    at: Date | string;
  }>(sql`
    select entitlement_id, type, detail, at from (
      select *, row_number() over (partition by entitlement_id order by at desc, id desc) as n
      from access_events where entitlement_id = any(${sql.param(rows.map((r) => r.id))}::text[])
    ) h where n <= 20 order by at desc, id desc`);
  // An alert product gives a role only while bound (ADR 059): unbound, it is no community to show.
  const shown = rows.filter(
    (r) => r.guild_id !== null || products.get(`product:${r.product_id}`)?.kind !== 'alert',
  );
  return Promise.all(
    shown.map(async (r): Promise<Community> => {
      const product = products.get(`product:${r.product_id}`);
      const vendor = product?.vendor;
      return {
        _id: r.id,
        purchaseId: r.purchase_id,
        vendor: { vendorUrl: vendor?.vendorUrl ?? '', displayName: vendor?.displayName ?? '' },
        product: { id: r.product_id, slug: product?.slug ?? '', title: product?.title ?? '' },
        server: r.guild_id
          ? { id: r.guild_id, name: r.guild_name!, iconUrl: r.guild_icon_url }
          : null,
        roles: r.roles ?? [],
        health: healthOf(r),
        invite: await inviteFor(deps, r),
        lastCheckedAt: iso(r.checked_at),
        history: history.rows
          .filter((h) => h.entitlement_id === r.id)
          .map((h) => ({
            type: h.type as Community['history'][number]['type'],
            detail: h.detail,
            at: new Date(h.at).toISOString(),
          })),
      };
    }),
  );
}

export async function communitiesOf(deps: AppDeps, userId: string): Promise<Community[]> {
  return present(deps, await load(deps, userId, null));
}

/** Re-checks now (not through the queue) and answers with the community as it stands after. */
export async function reconnect(deps: AppDeps, userId: string, id: string): Promise<Community> {
  const [row] = await load(deps, userId, id);
  if (!row) throw new AppError('not_found', m.communityNotFound);
  try {
    await convergeUser(deps, userId, { cause: 'reconnect' });
  } catch {
    // Recorded as failing with the reason and the next try (the card shows it); the queue retries.
    await queueConverge(deps, userId, { cause: 'retry' });
  }
  const [after] = await present(deps, await load(deps, userId, id));
  if (!after) throw new AppError('not_found', m.communityNotFound);
  return after;
}
