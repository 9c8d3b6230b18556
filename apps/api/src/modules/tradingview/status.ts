// Use case: where the buyer's TradingView access stands, product by product, in words.
import {
  tradingViewStatusText,
  utcDayLabel,
  type TradingViewAccessItem,
  type TradingViewAccessResponse,
  type TradingViewAccessStatus,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { accessOf } from '../access/index.ts';
import { itemSummaries } from '../catalog/index.ts';
import { bindingsOf } from './sync.ts';

const order: Record<TradingViewAccessStatus, number> = {
  needs_username: 0,
  waiting: 1,
  active: 2,
  ended: 3,
};

export async function accountOf(db: Tx, userId: string) {
  const found = await db.execute<{ username: string; changed_at: Date | string }>(
    sql`select username, changed_at from tradingview_usernames where user_id = ${userId}`,
  );
  const row = found.rows[0];
  return {
    username: row?.username ?? null,
    changedAt: row ? new Date(row.changed_at).toISOString() : null,
  };
}

/** Every product of the buyer that delivers scripts, live ones first. */
export async function accessStatus(
  deps: AppDeps,
  userId: string,
): Promise<TradingViewAccessResponse> {
  const db = deps.database.db;
  const [tradingview, entitlements, grants] = await Promise.all([
    accountOf(db, userId),
    accessOf(db, userId),
    db.execute<{ script_id: string; username: string; state: string }>(sql`
      select script_id, username, state from tradingview_grants
      where user_id = ${userId} and state in ('granting', 'active', 'revoking')`),
  ]);
  const bindings = await bindingsOf(
    db,
    entitlements.map((e) => e.productId),
  );
  if (!bindings.length) return { tradingview, access: [] };
  const summaries = await itemSummaries(
    db,
    bindings.map((b) => ({ type: 'product' as const, id: b.product_id })),
  );
  const name = tradingview.username?.toLowerCase() ?? null;
  // Given on TradingView (a revocation not done yet still leaves it there).
  const given = new Set(
    grants.rows
      .filter((g) => g.username.toLowerCase() === name && g.state !== 'granting')
      .map((g) => g.script_id),
  );
  const now = Date.now();
  const items: TradingViewAccessItem[] = [];
  for (const e of entitlements) {
    const scripts = bindings.filter((b) => b.product_id === e.productId);
    const product = summaries.get(`product:${e.productId}`);
    if (!scripts.length || !product) continue;
    const live = e.status === 'active' && (!e.endsAt || e.endsAt.getTime() > now);
    const status: TradingViewAccessStatus = !live
      ? 'ended'
      : !tradingview.username
        ? 'needs_username'
        : scripts.every((s) => given.has(s.script_id))
          ? 'active'
          : 'waiting';
    const endsAt = e.endsAt?.toISOString() ?? null;
    const endedReason = live ? null : (e.endedReason ?? null);
    items.push({
      id: e.id,
      purchaseId: e.purchaseId,
      product: { id: e.productId, slug: product.slug, title: product.title },
      vendor: product.vendor,
      scripts: scripts.map((s) => ({ id: s.script_id, name: s.name, url: s.url })),
      username: live ? tradingview.username : null,
      status,
      message: tradingViewStatusText(
        { status, vendorName: product.vendor.displayName, endsAt, endedReason },
        utcDayLabel,
      ),
      endsAt,
      endedReason,
    });
  }
  // One entry per product: an ended purchase hides behind a live one (a duplicate refunded at once).
  const shown = new Map<string, TradingViewAccessItem>();
  for (const item of items) {
    const held = shown.get(item.product.id);
    if (!held || order[item.status] < order[held.status] || held.status === 'ended')
      shown.set(item.product.id, item);
  }
  const access = [...shown.values()].sort(
    (a, b) => order[a.status] - order[b.status] || a.product.title.localeCompare(b.product.title),
  );
  return { tradingview, access };
}
