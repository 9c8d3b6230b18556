// Use case: vendor refunds the provider has not confirmed, asked again until it answers (ADR 042).
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { RefundRefusedError } from '../../integrations/payments/port.ts';
import { rows } from './repository.ts';

/**
 * Asks the provider again for each pending vendor refund that is due, under its first idempotency
 * key, so a refund whose first request had an unknown outcome is made at most once. A refusal frees
 * the held amount; the provider's `refund` event settles the rest. Returns how many were asked.
 */
export async function retryVendorRefunds(deps: AppDeps): Promise<number> {
  const claimed = await rows<{
    id: string;
    purchase_id: string;
    payment_ref: string;
    amount: number;
    reason: string;
    attempts: number;
  }>(
    deps.database.db,
    // The wait is refundBackoffMinutes (auto-refunds.ts) in SQL: `attempts` on the right is the
    // count before this attempt, so 1, 2, 4 … minutes, at most six hours.
    sql`update vendor_refunds set attempts = attempts + 1,
        next_attempt_at = now() + make_interval(mins => least(360, power(2, attempts)::int))
      where id in (select id from vendor_refunds
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at limit 50 for update skip locked)
      returning id, purchase_id, payment_ref, amount, reason, attempts`,
  );
  for (const r of claimed) {
    try {
      await deps.payments.refund({
        paymentRef: r.payment_ref,
        purchaseId: r.purchase_id,
        amount: r.amount,
        reason: 'vendor',
        note: r.reason,
        idempotencyKey: `vendor-refund:${r.id}`,
      });
    } catch (err) {
      if (err instanceof RefundRefusedError)
        await deps.database.db.execute(sql`update vendor_refunds set status = 'failed',
            failure = ${err.message.slice(0, 500)}, completed_at = now()
          where id = ${r.id} and status = 'pending'`);
      // Anything else: asked again after the backoff the claim set.
    }
  }
  return claimed.length;
}
