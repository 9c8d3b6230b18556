// Use cases: the buyer deactivates a device or resets a key from the apps page (ADR 032).
import { LICENCE_RESETS_MAX, licenceMessages as m, type Licence } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { licenceSealer, newKey } from './keys.ts';
import { licenceOf, statusSql } from './queries.ts';

interface OwnedRow extends Record<string, unknown> {
  id: string;
  status: 'active' | 'expired' | 'revoked';
  resets_used: number;
}

/** The buyer's licence, locked; 404 for ids that are not theirs (as for ids that do not exist). */
async function lockOwned(tx: Tx, userId: string, licenceId: string): Promise<OwnedRow> {
  const row = (
    await tx.execute<OwnedRow>(sql`select l.id, ${statusSql} as status, l.resets_used
      from licences l where l.id = ${licenceId} and l.user_id = ${userId} for update`)
  ).rows[0];
  if (!row) throw new AppError('not_found', m.notFound);
  return row;
}

export async function deactivateDevice(
  deps: AppDeps,
  userId: string,
  licenceId: string,
  activationId: string,
): Promise<Licence> {
  await deps.limiter.consume([{ rule: rules.licenceUser, key: userId }]);
  return deps.database.db.transaction(async (tx) => {
    await lockOwned(tx, userId, licenceId);
    const removed = await tx.execute(sql`
      with removed as (
        delete from licence_activations where id = ${activationId} and licence_id = ${licenceId}
        returning licence_id, name
      )
      insert into licence_events (licence_id, type, detail)
      select licence_id, 'deactivated', 'Deactivated “' || name || '” from the apps page.' from removed
      returning licence_id`);
    if (!removed.rows.length) throw new AppError('not_found', m.activationNotFound);
    return (await licenceOf(deps, userId, licenceId, tx))!;
  });
}

/**
 * A new key and no activations: the old key stops opening anything the moment this commits (it
 * then answers exactly as a key that never existed). Capped per licence.
 */
export async function resetKey(deps: AppDeps, userId: string, licenceId: string): Promise<Licence> {
  await deps.limiter.consume([{ rule: rules.licenceUser, key: userId }]);
  return deps.database.db.transaction(async (tx) => {
    const licence = await lockOwned(tx, userId, licenceId);
    if (licence.resets_used >= LICENCE_RESETS_MAX)
      throw new AppError('business_rule', m.resetsUsed);
    if (licence.status !== 'active') throw new AppError('licence_inactive', m.resetInactive);
    const key = newKey(licenceSealer(deps));
    await tx.execute(sql`
      with removed as (
        delete from licence_activations where licence_id = ${licenceId} returning id
      ), changed as (
        update licences set key_hash = ${key.hash}, key_sealed = ${key.sealed},
          resets_used = resets_used + 1, updated_at = now()
        where id = ${licenceId}
        returning resets_used
      )
      insert into licence_events (licence_id, type, detail)
      select ${licenceId}, 'reset',
        'New key issued from the apps page (reset ' || changed.resets_used || ' of ${sql.raw(String(LICENCE_RESETS_MAX))}); '
          || (select count(*) from removed) || ' activation(s) removed.'
      from changed`);
    return (await licenceOf(deps, userId, licenceId, tx))!;
  });
}
