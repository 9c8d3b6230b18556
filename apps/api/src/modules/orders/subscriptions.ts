// Use cases: a subscription's updates from the provider, and ending the ones that lapsed.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PaymentEvent } from '../../integrations/payments/port.ts';
import { rows, type PurchaseRow } from './repository.ts';
import { endAccess, grantedRef } from './access-end.ts';

export async function updateSubscription(
  deps: AppDeps,
  tx: Tx,
  purchase: PurchaseRow,
  event: PaymentEvent,
): Promise<void> {
  if (purchase.status !== 'paid' || purchase.subscription_status === 'ended') return;
  const cancelling = event.cancelAtPeriodEnd === true;
  const periodEnd = event.periodEnd ?? purchase.current_period_end;
  // Stripe also reports changes that are not ours (a saved card): a trial stays a trial until
  // its first renewal, unless it is being cancelled.
  await tx.execute(sql`update purchases set
      subscription_status = ${cancelling ? 'cancelling' : sql`case when subscription_status = 'trialing' then 'trialing' else 'active' end`},
      current_period_end = ${periodEnd}, updated_at = now()
    where id = ${purchase.id}`);
  // Cancellation keeps access to the end of the paid period; resuming clears the end date.
  if (cancelling)
    await deps.events.publish(tx, 'subscription.cancelling', purchase.id, {
      ...(await grantedRef(tx, purchase)),
      accessUntil: periodEnd ? new Date(periodEnd).toISOString() : null,
    });
  else if (purchase.subscription_status === 'cancelling')
    await deps.events.publish(
      tx,
      'subscription.resumed',
      purchase.id,
      await grantedRef(tx, purchase),
    );
}

/** How long past a cancelled subscription's period end the provider's own "ended" event gets first. */
export const LAPSE_GRACE_HOURS = 24;

/**
 * Ends access for subscriptions cancelled at period end whose period ended more than a grace period ago
 * without the provider's `subscription.ended` event (lost, or never sent): the local clock behind the
 * provider's. Returns how many purchases it ended.
 */
export async function endLapsedSubscriptions(deps: AppDeps): Promise<number> {
  const { ended, queued } = await deps.database.db.transaction(async (tx) => {
    const lapsed = await rows<PurchaseRow>(
      tx,
      sql`select * from purchases
          where status = 'paid' and subscription_status = 'cancelling'
            and current_period_end < now() - make_interval(hours => ${LAPSE_GRACE_HOURS})
          order by id
          for update skip locked`,
    );
    for (const purchase of lapsed) {
      await endAccess(deps, tx, purchase, { reason: 'subscription_ended' });
      await tx.execute(sql`update purchases set subscription_status = 'ended', updated_at = now()
        where id = ${purchase.id}`);
    }
    return { ended: lapsed.length, queued: deps.events.queuedIn(tx) };
  });
  await deps.events.notify(queued);
  return ended;
}
