// Alert e-mail (ADR 059): the alerts of a minute go to a subscriber as one e-mail, sent only while
// they still hold the feed; and the e-mail telling a buyer their alert webhook was paused.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { publicOrigin } from '../../platform/origin.ts';
import type { DisabledEndpoint, WebhookOwner } from '../../webhooks/engine.ts';
import { emailIn, liveAccess, productBasics } from './deps.ts';
import { alertView, joinedAlertColumns, type AlertRow } from './view.ts';

export function buyerWebhookOwner(deps: () => AppDeps): WebhookOwner {
  return {
    async onDisabled(tx: Tx, endpoint: DisabledEndpoint) {
      const d = deps();
      const to = await emailIn(tx, endpoint.ownerId);
      if (!to) return;
      const id = await d.mailer.enqueue(tx, {
        to,
        subject: 'Your alert webhook is paused',
        text: [
          `We paused alerts to ${endpoint.url} after ${endpoint.consecutiveFailures} failed deliveries in a row.`,
          '',
          'Alerts for it are kept. Fix the endpoint, then press "Retry" on the alert feed in your library to send them:',
          `${publicOrigin(d.config)}/library`,
        ].join('\n'),
      });
      return () => d.mailer.dispatch([id]);
    },
  };
}

const line = (a: ReturnType<typeof alertView>) =>
  [
    new Date(a.createdAt).toISOString().slice(11, 19) + ' UTC',
    a.side?.toUpperCase(),
    a.symbol,
    a.price ? `@ ${a.price}` : null,
    a.text ? `— ${a.text}` : null,
    a.imageUrl ? `(chart: ${a.imageUrl})` : null,
  ]
    .filter(Boolean)
    .join(' ');

/**
 * Mails each subscriber whose oldest waiting alert e-mail is at least the batch age old: everything
 * waiting for them, one e-mail per feed. Access ended meanwhile (a refund …) fails those instead.
 */
export async function sendAlertMail(deps: AppDeps): Promise<number> {
  const db = deps.database.db;
  const due = await db.execute<{ user_id: string }>(sql`
    select user_id from alert_deliveries where channel = 'email' and status = 'queued'
    group by user_id
    having min(created_at) <= now() - make_interval(secs => ${deps.config.ALERTS_MAIL_BATCH_SECONDS})
    limit 500`);
  let sent = 0;
  for (const { user_id: userId } of due.rows) {
    const ids = await db.transaction(async (tx) => {
      const claimed = await tx.execute<AlertRow & { seq: number }>(sql`
        with mine as (
          update alert_deliveries set status = 'delivered', updated_at = now()
          where user_id = ${userId} and channel = 'email' and status = 'queued'
          returning alert_id)
        select ${joinedAlertColumns}, a.seq
        from alerts a join mine on mine.alert_id = a.id order by a.seq`);
      if (!claimed.rows.length) return [];
      const held = new Set(
        (await liveAccess(tx, userId, [...new Set(claimed.rows.map((r) => r.product_id))])).map(
          (e) => e.productId,
        ),
      );
      const gone = claimed.rows.filter((r) => !held.has(r.product_id)).map((r) => r.id);
      if (gone.length)
        await tx.execute(sql`update alert_deliveries set status = 'failed',
            reason = 'Access ended before it was sent'
          where user_id = ${userId} and channel = 'email'
            and alert_id = any(${sql.param(gone)}::text[])`);
      const to = await emailIn(tx, userId);
      const kept = claimed.rows.filter((r) => held.has(r.product_id));
      if (!to || !kept.length) return [];
      const out: string[] = [];
      for (const productId of new Set(kept.map((r) => r.product_id))) {
        const mine = kept.filter((r) => r.product_id === productId).map(alertView);
        const title = (await productBasics(tx, productId))?.title ?? 'Alerts';
        out.push(
          await deps.mailer.enqueue(tx, {
            to,
            subject:
              mine.length === 1
                ? `${title}: ${[mine[0]!.side?.toUpperCase(), mine[0]!.symbol].filter(Boolean).join(' ') || 'new alert'}`
                : `${title}: ${mine.length} alerts`,
            text: [
              ...mine.map(line),
              '',
              `See the feed and choose how alerts reach you: ${publicOrigin(deps.config)}/library/alerts/${productId}`,
            ].join('\n'),
          }),
        );
      }
      return out;
    });
    if (ids.length) {
      await deps.mailer.dispatch(ids);
      sent += ids.length;
    }
  }
  return sent;
}
