// Use case: the vendor's app releases this device's activation (public licence API, ADR 032).
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { hashOfTypedKey, invalidKey } from './keys.ts';
import {
  appSummary,
  consumeLicenceLimits,
  publicLicenceView,
  lockLicenceByKey,
} from './public-api.ts';

/** Idempotent: a fingerprint that is not active answers `deactivated: false`. */
export async function deactivate(
  deps: AppDeps,
  address: string,
  body: { key: string; fingerprint: string },
) {
  const hash = hashOfTypedKey(body.key);
  await consumeLicenceLimits(deps, address, hash);
  const done = await deps.database.db.transaction(async (tx) => {
    const licence = await lockLicenceByKey(tx, hash);
    if (!licence) return null;
    const removed = await tx.execute<{ used: number; removed: number }>(sql`
      with removed as (
        delete from licence_activations
        where licence_id = ${licence.id} and fingerprint = ${body.fingerprint}
        returning licence_id, name
      ), noted as (
        insert into licence_events (licence_id, type, detail)
        select licence_id, 'deactivated', 'Deactivated from the app on “' || name || '”.' from removed
      )
      select (select count(*)::int from removed) as removed,
        (select count(*)::int from licence_activations where licence_id = ${licence.id})
          - (select count(*)::int from removed) as used`);
    const r = removed.rows[0]!;
    return { licence, deactivated: r.removed > 0, used: r.used };
  });
  if (!done) throw invalidKey();
  const summary = await appSummary(deps, deps.database.db, done.licence.product_id);
  return {
    deactivated: done.deactivated,
    licence: publicLicenceView(done.licence, summary, done.used),
  };
}
