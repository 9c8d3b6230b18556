// Use case: issue licences for the app products a purchase pays for, and keep their expiry with the
// purchase's entitlement (ADR 028, 032): renewal extends, cancellation dates, lapse expires, a full
// refund or a dispute revokes.
import { LICENCE_DEFAULT_MAX_ACTIVATIONS, PLATFORM_VENDOR_URL } from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { PurchaseEvent } from '../../events/types.ts';
import { newId } from '../../lib.ts';
import { vendorIdByUrl } from '../catalog/index.ts';
import { licenceSealer, newKey } from './keys.ts';

/** The platform's vendor sells the plans (kind `app` in the catalogue): memberships, not software. */
const platformVendors = new WeakMap<AppDeps, string>();

async function isPlatformVendor(deps: AppDeps, tx: Tx, vendorId: string): Promise<boolean> {
  let platform = platformVendors.get(deps);
  if (!platform) {
    const found = await vendorIdByUrl(tx, PLATFORM_VENDOR_URL);
    if (!found) return false;
    platformVendors.set(deps, (platform = found));
  }
  return platform === vendorId;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * Runs inline in the transaction that changed the purchase, on the licences module's own tables.
 * Every branch is a guarded write (insert-if-missing, update-while-so) that records history only for
 * rows it changed, so a repeated or late event changes nothing.
 */
export async function keepLicences(deps: AppDeps, tx: Tx, event: PurchaseEvent): Promise<void> {
  const purchaseId = event.data.purchaseId;
  if (event.type === 'purchase.paid') {
    const apps = event.data.products.filter((p) => p.kind === 'app');
    if (!apps.length || (await isPlatformVendor(deps, tx, event.data.vendorId))) return;
    const sealer = licenceSealer(deps);
    const rows = apps.map((p) => {
      const key = newKey(sealer);
      return sql`(${newId('lic')}, ${p.id}, ${key.hash}, ${key.sealed})`;
    });
    const issued = await tx.execute<{ id: string; product_id: string }>(sql`
      with picked (id, product_id, key_hash, key_sealed) as (values ${sql.join(rows, sql`, `)}),
      issued as (
        insert into licences (id, purchase_id, user_id, product_id, vendor_id, key_hash, key_sealed,
          max_activations, binding)
        select p.id, ${purchaseId}, ${event.data.buyerId}, p.product_id, ${event.data.vendorId},
          p.key_hash, p.key_sealed, coalesce(s.max_activations, ${LICENCE_DEFAULT_MAX_ACTIVATIONS}),
          s.binding
        from picked p left join licence_products s on s.product_id = p.product_id
        on conflict (purchase_id, product_id) do nothing
        returning id, product_id
      ), logged as (
        insert into licence_events (licence_id, type, detail)
        select id, 'issued', ${event.data.trial ? 'Issued with the free trial.' : 'Issued with the purchase.'}
        from issued
      )
      select id, product_id from issued`);
    // Only licences this call issued: a repeated event publishes nothing again.
    for (const l of issued.rows)
      await deps.events.publish(tx, 'licence.issued', l.id, {
        licenceId: l.id,
        purchaseId,
        productId: l.product_id,
        vendorId: event.data.vendorId,
        buyerId: event.data.buyerId,
      });
    return;
  }
  // Purchases that hold no app skip every statement below.
  if (!event.data.deliveries.includes('licence')) return;
  switch (event.type) {
    case 'purchase.refunded':
      if (event.data.full) await revoke(deps, tx, event, 'refunded', 'The purchase was refunded.');
      return;
    case 'purchase.disputed':
      await revoke(deps, tx, event, 'disputed', 'The payment was disputed.');
      return;
    case 'purchase.revoked':
      await revoke(deps, tx, event, 'revoked', `Revoked by the vendor: ${event.data.reason}`);
      return;
    case 'subscription.ended':
      await changed(
        tx,
        sql`update licences set status = 'expired', ended_reason = 'subscription_ended',
            expires_at = least(coalesce(expires_at, now()), now()), updated_at = now()
          where purchase_id = ${purchaseId} and status = 'active'`,
        'expired',
        'The subscription ended.',
      );
      return;
    case 'subscription.cancelling': {
      const until = event.data.accessUntil;
      if (!until) return;
      await changed(
        tx,
        sql`update licences set expires_at = ${until}::timestamptz, updated_at = now()
          where purchase_id = ${purchaseId} and status = 'active'
            and expires_at is distinct from ${until}::timestamptz`,
        'expiry_changed',
        `Subscription cancelled: the licence ends with the paid period on ${day(until)}.`,
      );
      return;
    }
    case 'subscription.resumed':
      await changed(
        tx,
        sql`update licences set expires_at = null, updated_at = now()
          where purchase_id = ${purchaseId} and status = 'active' and expires_at is not null`,
        'expiry_changed',
        'Subscription resumed: the licence runs on with the renewals.',
      );
      return;
    case 'subscription.renewed': {
      // Only a dated licence (a cancelling subscription renewed once more) has an end to move.
      const periodEnd = event.data.periodEnd;
      if (!periodEnd) return;
      await changed(
        tx,
        sql`update licences set expires_at = ${periodEnd}::timestamptz, updated_at = now()
          where purchase_id = ${purchaseId} and status = 'active'
            and expires_at < ${periodEnd}::timestamptz`,
        'expiry_changed',
        `Renewed: the licence runs to ${day(periodEnd)}.`,
      );
      return;
    }
    default:
      return;
  }
}

/** Revokes the purchase's licences and publishes `licence.revoked` for each it changed. */
async function revoke(
  deps: AppDeps,
  tx: Tx,
  event: PurchaseEvent,
  reason: string,
  detail: string,
): Promise<void> {
  const purchaseId = event.data.purchaseId;
  const revoked = await changed(
    tx,
    sql`update licences set status = 'revoked', ended_reason = ${reason},
        expires_at = least(coalesce(expires_at, now()), now()), updated_at = now()
      where purchase_id = ${purchaseId} and status <> 'revoked'`,
    'revoked',
    detail,
  );
  for (const l of revoked)
    await deps.events.publish(tx, 'licence.revoked', l.id, {
      licenceId: l.id,
      purchaseId,
      productId: l.product_id,
      vendorId: event.data.vendorId,
      buyerId: event.data.buyerId,
      reason,
    });
}

/**
 * Runs `update` (without its `returning`) and records `type` for each licence it changed; answers
 * those licences.
 */
async function changed(tx: Tx, update: SQL, type: string, detail: string) {
  const { rows } = await tx.execute<{ id: string; product_id: string }>(sql`
    with changed as (${update} returning id, product_id), logged as (
      insert into licence_events (licence_id, type, detail)
      select id, ${type}, ${detail} from changed
    )
    select id, product_id from changed`);
  return rows;
}
