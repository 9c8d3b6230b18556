// Use case: a vendor ends a buyer's access to one of their sales (ADR 034).
import { ordersMessages, type RevokeAccessBody, type VendorSale } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import * as users from '../users/index.ts';
import { grantedRef } from './access-end.ts';
import { processAutoRefunds } from './auto-refunds.ts';
import { revokedMail } from './receipts.ts';
import { one, type PurchaseRow } from './repository.ts';
import { salesWhere } from './vendor-sales.ts';

/** Subscriptions the provider may still charge. */
const CHARGING = ['trialing', 'active', 'past_due', 'cancelling'];

/**
 * Ends access in one transaction: the purchase records why, `purchase.revoked` ends the entitlements,
 * ownership, licence and roles through their modules (ADR 028), and the buyer is told. No money moves:
 * a refund is the provider's own event. A subscription that could still charge is ended with it and
 * cancelled at the provider through the auto-refund outbox, retried until the provider takes it, so
 * the buyer is never charged for access they no longer have. Repeating it changes nothing.
 */
export async function revokeAccess(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  purchaseId: string,
  body: RevokeAccessBody,
): Promise<VendorSale> {
  const db = deps.database.db;
  const reason = body.reason.trim();
  const mailIds: string[] = [];
  const { cancelling, queued } = await db.transaction(async (tx) => {
    // The row lock orders this against the provider's events and a second revoke of the same sale.
    const purchase = await one<LockedPurchase>(
      tx,
      sql`select * from purchases where id = ${purchaseId} and vendor_id = ${vendorId} for update`,
    );
    // Another vendor's sale, and a checkout never paid, are not this vendor's to see.
    if (!purchase || !purchase.paid_at) throw notFound();
    if (purchase.revoked_at) return { cancelling: false, queued: false };
    if (purchase.status !== 'paid') throw new AppError('conflict', ordersMessages.revokeNotPaid);
    const cancelling = await endPurchaseAccess(deps, tx, purchase, reason, userId);
    const [sale] = await salesWhere(tx, sql`p.id = ${purchase.id}`, 1);
    const email = await users.emailIn(tx, purchase.buyer_id);
    if (sale && email) mailIds.push(await deps.mailer.enqueue(tx, revokedMail(email, sale)));
    return { cancelling, queued: deps.events.queuedIn(tx) };
  });
  await deps.mailer.dispatch(mailIds);
  await deps.events.notify(queued);
  // Best effort now; the auto-refund job retries with backoff if the provider is down.
  if (cancelling) await processAutoRefunds(deps, [purchaseId]).catch(() => 0);
  const [sale] = await salesWhere(db, sql`p.id = ${purchaseId}`, 1);
  if (!sale) throw notFound();
  return sale;
}

type LockedPurchase = PurchaseRow & { revoked_at: Date | null; paid_at: Date | null };

/**
 * The revocation itself, on a purchase row locked `for update` that is paid and not yet revoked:
 * records why and who, ends a subscription that could still charge (cancelled at the provider
 * through the auto-refund outbox) and publishes `purchase.revoked`, whose subscribers end the
 * entitlements, ownership, licence and roles (ADR 028). Answers whether a subscription is being
 * cancelled. Vendors' revocations and account deletion (ADR 060) both come through here.
 */
export async function endPurchaseAccess(
  deps: AppDeps,
  tx: Tx,
  purchase: LockedPurchase,
  reason: string,
  by: string,
): Promise<boolean> {
  const cancelling =
    purchase.subscription_id !== null && CHARGING.includes(purchase.subscription_status ?? '');
  await tx.execute(sql`update purchases set revoked_at = now(), revoked_reason = ${reason},
      revoked_by = ${by},
      subscription_status = case when ${cancelling} then 'ended' else subscription_status end,
      updated_at = now()
    where id = ${purchase.id}`);
  if (cancelling)
    await tx.execute(sql`insert into auto_refunds (purchase_id, reason, subscription_id)
      values (${purchase.id}, 'revoked', ${purchase.subscription_id}) on conflict do nothing`);
  await deps.events.publish(tx, 'purchase.revoked', purchase.id, {
    ...(await grantedRef(tx, purchase)),
    reason,
  });
  return cancelling;
}

const notFound = () => new AppError('not_found', ordersMessages.purchaseNotFound);
