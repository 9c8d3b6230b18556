// What the public licence API's use cases share: limits, the licence as an app sees it, and the
// product names beside it (ADR 032).
import type { LicenceStatus } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { safeEqual } from '../../lib.ts';
import { rules } from '../../platform/rate-limit.ts';
import { TtlCache } from '../../platform/ttl-cache.ts';
import { itemSummaries } from '../catalog/index.ts';
import { statusSql } from './queries.ts';

/**
 * Counts a call against the key's budget and the address's, before anything is looked up, so a
 * key that opens nothing costs the caller what a real one does. The key counts by its hash.
 */
export function consumeLicenceLimits(deps: AppDeps, address: string, keyHash: string) {
  return deps.limiter.consume([
    {
      rule: { ...rules.licenceKey, limit: deps.config.LICENCE_KEY_LIMIT_PER_MINUTE },
      key: keyHash,
    },
    { rule: { ...rules.licenceIp, limit: deps.config.LICENCE_IP_LIMIT_PER_MINUTE }, key: address },
  ]);
}

export interface AppSummary {
  product: { id: string; slug: string; title: string };
  vendor: { vendorUrl: string; displayName: string };
}

/** Product and vendor names change rarely: apps validating at 500/s should not read them each time. */
const summaryCaches = new WeakMap<AppDeps, TtlCache<AppSummary>>();

export async function appSummary(deps: AppDeps, db: Tx, productId: string): Promise<AppSummary> {
  let cache = summaryCaches.get(deps);
  if (!cache) summaryCaches.set(deps, (cache = new TtlCache<AppSummary>(60_000, 5_000)));
  const hit = cache.get(productId);
  if (hit) return hit;
  const found = (await itemSummaries(db, [{ type: 'product', id: productId }])).get(
    `product:${productId}`,
  );
  const summary: AppSummary = {
    product: { id: productId, slug: found?.slug ?? '', title: found?.title ?? '' },
    vendor: found?.vendor ?? { vendorUrl: '', displayName: '' },
  };
  cache.set(productId, summary);
  return summary;
}

export interface LockedLicence extends Record<string, unknown> {
  id: string;
  product_id: string;
  vendor_id: string;
  key_hash: string;
  status: LicenceStatus;
  expires_at: Date | string | null;
  max_activations: number;
  binding: 'metatrader_account' | 'ninjatrader_machine' | 'device' | null;
}

/**
 * The licence a typed key names, locked for the activation change that follows; null when no key
 * hashes to it (compared in constant time, so timing says nothing of a near miss).
 */
export async function lockLicenceByKey(tx: Tx, hash: string): Promise<LockedLicence | null> {
  const licence = (
    await tx.execute<LockedLicence>(sql`
      select l.id, l.product_id, l.vendor_id, l.key_hash, ${statusSql} as status, l.expires_at,
        l.max_activations, l.binding
      from licences l where l.key_hash = ${hash}
      for update`)
  ).rows[0];
  return licence && safeEqual(licence.key_hash, hash) ? licence : null;
}

/** The licence as the vendor's app sees it: no key, no buyer. */
export function publicLicenceView(
  licence: LockedLicence,
  summary: AppSummary,
  activationsUsed: number,
) {
  return {
    id: licence.id,
    status: licence.status,
    expiresAt: licence.expires_at === null ? null : new Date(licence.expires_at).toISOString(),
    product: summary.product,
    vendor: summary.vendor,
    maxActivations: licence.max_activations,
    activationsUsed,
  };
}
