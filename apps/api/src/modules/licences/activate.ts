// Use case: the vendor's app activates a device on a key (public licence API, ADR 032).
import {
  bindingRules,
  fingerprintProblem,
  licenceMessages as m,
  type ActivateBody,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { hashOfTypedKey, invalidKey } from './keys.ts';
import {
  appSummary,
  consumeLicenceLimits,
  publicLicenceView,
  lockLicenceByKey,
} from './public-api.ts';
import { activationView } from './queries.ts';

interface ActivationRow extends Record<string, unknown> {
  id: string;
  licence_id: string;
  name: string;
  binding: 'metatrader_account' | 'ninjatrader_machine' | 'device';
  fingerprint: string;
  activated_at: Date | string;
  last_seen_at: Date | string;
}

/** `•••• 2345`: enough for the buyer to recognise a device in the history. */
const masked = (fingerprint: string) => `•••• ${fingerprint.slice(-4)}`;

/**
 * The licence row is locked for the whole decision, so two devices racing for the last free slot
 * take turns: the second sees the first and is refused. The same fingerprint again answers with its
 * existing activation.
 */
export async function activate(deps: AppDeps, address: string, body: ActivateBody) {
  const hash = hashOfTypedKey(body.key);
  await consumeLicenceLimits(deps, address, hash);
  const problem = fingerprintProblem(body.binding, body.fingerprint);
  if (problem) throw new AppError('validation_failed', problem, { fingerprint: problem });

  const done = await deps.database.db.transaction(async (tx) => {
    const licence = await lockLicenceByKey(tx, hash);
    if (!licence) return null;
    if (licence.status !== 'active')
      throw new AppError('licence_inactive', licence.status === 'expired' ? m.expired : m.revoked);
    if (licence.binding && licence.binding !== body.binding)
      throw new AppError('business_rule', m.bindingMismatch(bindingRules[licence.binding].label), {
        binding: m.bindingMismatch(bindingRules[licence.binding].label),
      });
    const existing = (
      await tx.execute<ActivationRow>(sql`select id, licence_id, name, binding, fingerprint,
          activated_at, last_seen_at
        from licence_activations where licence_id = ${licence.id} order by activated_at, id`)
    ).rows;
    const same = existing.find((a) => a.fingerprint === body.fingerprint);
    if (same) {
      const seen = await tx.execute<{ last_seen_at: string }>(sql`update licence_activations
        set last_seen_at = now() where id = ${same.id} returning last_seen_at`);
      return {
        licence,
        created: false,
        activation: { ...same, last_seen_at: seen.rows[0]!.last_seen_at },
        used: existing.length,
      };
    }
    if (existing.length >= licence.max_activations)
      throw new AppError('activation_limit', m.limitReached(licence.max_activations));
    const label = bindingRules[body.binding].label;
    const inserted = await tx.execute<ActivationRow>(sql`
      with added as (
        insert into licence_activations (id, licence_id, binding, fingerprint, name)
        values (${newId('act')}, ${licence.id}, ${body.binding}, ${body.fingerprint}, ${body.name})
        returning *
      ), noted as (
        insert into licence_events (licence_id, type, detail)
        select licence_id, 'activated', ${`Activated on “${body.name}” (${label} ${masked(body.fingerprint)}).`}
        from added
      )
      select * from added`);
    const activation = inserted.rows[0]!;
    const owner = (
      await tx.execute<{ purchase_id: string | null; user_id: string }>(
        sql`select purchase_id, user_id from licences where id = ${licence.id}`,
      )
    ).rows[0]!;
    await deps.events.publish(tx, 'licence.activated', licence.id, {
      licenceId: licence.id,
      purchaseId: owner.purchase_id,
      productId: licence.product_id,
      vendorId: licence.vendor_id,
      buyerId: owner.user_id,
      activationId: activation.id,
      deviceName: activation.name,
    });
    return {
      licence,
      created: true,
      activation,
      used: existing.length + 1,
      queued: deps.events.queuedIn(tx),
    };
  });
  if (!done) throw invalidKey();
  if (done.created) await deps.events.notify(done.queued ?? false);
  const summary = await appSummary(deps, deps.database.db, done.licence.product_id);
  return {
    created: done.created,
    activation: activationView(done.activation),
    licence: publicLicenceView(done.licence, summary, done.used),
  };
}
