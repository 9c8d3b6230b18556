// The vendor's fan-out view (ADR 059): each alert with its deliveries counted per channel and
// state, and why the failed ones failed.
import type { AlertChannel, AlertDeliveryStatus, VendorAlert } from '@tradeshelf/contract';
import { alertChannels } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind } from '../../platform/cursor.ts';
import * as store from '../../webhooks/store.ts';
import { vendorFeed } from './feeds.ts';
import { alertsPage, BUYER_OWNER, discordPosts, type DeliveryState } from './publish.ts';
import { alertView } from './view.ts';

const vendorAlertsCursor = cursorKind('vendor-alerts', [
  cursorField.count(Number.MAX_SAFE_INTEGER),
]);

export async function vendorAlerts(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ alerts: VendorAlert[]; nextCursor: string | null }> {
  await vendorFeed(deps, vendorId, productId);
  const db = deps.database.db;
  const { page, nextCursor } = await alertsPage(deps, productId, vendorAlertsCursor, query);
  const ids = page.map((r) => r.id);
  const counted = ids.length
    ? (
        await db.execute<
          DeliveryState & { n: number }
        >(sql`select alert_id, channel, status, reason, count(*)::int as n from alert_deliveries
          where alert_id = any(${sql.param(ids)}::text[]) and channel <> 'webhook'
          group by alert_id, channel, status, reason`)
      ).rows
    : [];
  // The Discord channel's post: one per alert, whoever holds the feed.
  for (const p of await discordPosts(db, ids)) counted.push({ ...p, channel: 'discord', n: 1 });
  // Webhook deliveries are the engine's messages: their state is read there.
  for (const m of await store.eventMessageCounts(db, ids, BUYER_OWNER))
    counted.push({
      alert_id: m.event_id,
      channel: 'webhook',
      status: m.status === 'pending' ? 'queued' : m.status,
      reason: m.status === 'failed' || m.status === 'pending' ? m.last_error : null,
      n: m.n,
    });
  const alerts = page.map((r): VendorAlert => {
    const mine = counted.filter((c) => c.alert_id === r.id);
    const failures = new Map<string, { channel: AlertChannel; reason: string; count: number }>();
    for (const c of mine)
      if (c.reason && c.status !== 'delivered') {
        const key = `${c.channel}:${c.reason}`;
        const f = failures.get(key) ?? { channel: c.channel, reason: c.reason, count: 0 };
        f.count += c.n;
        failures.set(key, f);
      }
    return {
      ...alertView(r),
      recipients: Number(r.recipients),
      channels: alertChannels.map((channel) => {
        const of = (status: AlertDeliveryStatus) =>
          mine
            .filter((c) => c.channel === channel && c.status === status)
            .reduce((n, c) => n + c.n, 0);
        return { channel, queued: of('queued'), delivered: of('delivered'), failed: of('failed') };
      }),
      failures: [...failures.values()].sort((a, b) => b.count - a.count).slice(0, 10),
    };
  });
  return { alerts, nextCursor };
}
