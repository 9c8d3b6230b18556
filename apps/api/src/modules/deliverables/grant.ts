// What a buyer's purchases of a product give them to download (docs/product.md#deliverables): access
// follows the purchase (refund, dispute, revocation, a subscription's end stop it), and the updates
// promise decides which versions it covers.
import type { DownloadEndReason, UpdatePolicy } from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import { accessHistory } from '../access/index.ts';
import { purchaseTerms, type PurchaseTerms } from '../orders/index.ts';
import type { VersionRow } from './repository.ts';

export interface Grant {
  /** The purchase downloads are traced to (the one giving the most). */
  purchaseId: string;
  /** Null while downloads are open. */
  ended: DownloadEndReason | null;
  subscription: boolean;
  /** Versions released up to this instant are covered; null covers all. */
  coversUntil: Date | null;
}

const endReasons: Record<string, DownloadEndReason> = {
  refunded: 'refunded',
  disputed: 'disputed',
  revoked: 'revoked',
};

/** Up to when a purchase's updates promise covers versions; null: every version. */
export function coverOf(terms: PurchaseTerms | undefined, policy: UpdatePolicy): Date | null {
  if (!terms || terms.subscription || policy === 'lifetime') return null;
  const paid = terms.paidAt ?? new Date(0);
  if (policy === 'none') return paid;
  const year = new Date(paid);
  year.setUTCMonth(year.getUTCMonth() + 12);
  return year;
}

/** Null when the buyer never had access to the product (its pages answer 404). */
export async function grantOf(
  db: Tx,
  userId: string,
  productId: string,
  policy: UpdatePolicy,
): Promise<Grant | null> {
  const history = await accessHistory(db, userId, productId);
  if (!history.length) return null;
  const terms = await purchaseTerms(
    db,
    history.map((e) => e.purchaseId),
  );
  const now = Date.now();
  const live = history.filter(
    (e) => e.status === 'active' && (e.endsAt === null || e.endsAt.getTime() > now),
  );
  if (!live.length) {
    const last = history[0]!;
    return {
      purchaseId: last.purchaseId,
      ended: endReasons[last.endedReason ?? ''] ?? 'expired',
      subscription: terms.get(last.purchaseId)?.subscription ?? false,
      coversUntil: null,
    };
  }
  let best: Grant | null = null;
  for (const e of live) {
    const t = terms.get(e.purchaseId);
    const grant: Grant = {
      purchaseId: e.purchaseId,
      ended: null,
      subscription: t?.subscription ?? false,
      coversUntil: coverOf(t, policy),
    };
    if (
      !best ||
      (best.coversUntil !== null &&
        (grant.coversUntil === null || grant.coversUntil > best.coversUntil))
    )
      best = grant;
  }
  return best;
}

/**
 * Whether an open grant covers a published version. A platform's first version is always covered,
 * so a purchase made before any file existed still gets one.
 */
export function covers(grant: Grant, version: VersionRow, firstOfPlatform: Date | null): boolean {
  if (grant.ended || !version.publishedAt) return false;
  if (grant.coversUntil === null) return true;
  if (firstOfPlatform && version.publishedAt.getTime() <= firstOfPlatform.getTime()) return true;
  return version.publishedAt.getTime() <= grant.coversUntil.getTime();
}
