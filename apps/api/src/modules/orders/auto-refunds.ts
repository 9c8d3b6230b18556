// Use case: refunds owed at the provider (duplicate payments), retried until it takes them.
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { backoff } from '../../lib.ts';
import { rows } from './repository.ts';

/** Attempts between retries of a provider refund: 1, 2, 4 … minutes, at most six hours. */
export const refundBackoffMinutes = (attempts: number) => backoff(attempts, 1, 360);

/**
 * Carries out owed refunds at the provider: each claimed for a while so two runs do not overlap,
 * retried with backoff on failure. The provider's idempotency keys make a repeat refund nothing.
 * `only` limits the run to some purchases (right after the payment); the job passes none.
 */
export async function processAutoRefunds(deps: AppDeps, only?: string[]): Promise<number> {
  const db = deps.database.db;
  const claimed = await rows<{
    purchase_id: string;
    payment_ref: string | null;
    subscription_id: string | null;
    attempts: number;
  }>(
    db,
    sql`update auto_refunds set attempts = attempts + 1, next_attempt_at = now() + interval '5 minutes'
      where purchase_id in (select purchase_id from auto_refunds
        where status = 'pending' and next_attempt_at <= now()
          ${
            only
              ? sql`and purchase_id in (${sql.join(
                  only.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        order by created_at limit 50 for update skip locked)
      returning purchase_id, payment_ref, subscription_id, attempts`,
  );
  let done = 0;
  for (const r of claimed) {
    try {
      if (r.subscription_id) {
        await deps.payments.cancelSubscription({
          subscriptionId: r.subscription_id,
          idempotencyKey: `dup-cancel:${r.purchase_id}`,
        });
      }
      if (r.payment_ref) {
        await deps.payments.refund({
          paymentRef: r.payment_ref,
          purchaseId: r.purchase_id,
          reason: 'duplicate',
          idempotencyKey: `dup-refund:${r.purchase_id}`,
        });
      }
      await db.execute(sql`update auto_refunds set status = 'done', done_at = now(), last_error = null
        where purchase_id = ${r.purchase_id}`);
      done++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db.execute(sql`update auto_refunds set last_error = ${message.slice(0, 500)},
          next_attempt_at = now() + make_interval(mins => ${refundBackoffMinutes(r.attempts)})
        where purchase_id = ${r.purchase_id}`);
    }
  }
  return done;
}
