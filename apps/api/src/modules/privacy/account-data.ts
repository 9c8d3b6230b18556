// Use cases: exporting everything that is an account's, and deleting the account (ADR 060). This
// slice owns no tables: each module gives its part through its entry, and a deletion runs every
// module's part in one transaction, so it happens whole or not at all.
import { accountDataMessages, type AccountConfirm, type AccountExport } from '@tradeshelf/contract';
import type { Pages } from '../../db/pages.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import * as access from '../access/index.ts';
import * as affiliates from '../affiliates/index.ts';
import * as auth from '../auth/index.ts';
import * as catalog from '../catalog/index.ts';
import * as developers from '../developers/index.ts';
import * as licences from '../licences/index.ts';
import * as orders from '../orders/index.ts';
import * as reviews from '../reviews/index.ts';
import * as users from '../users/index.ts';

/** The export's shape, with any list free to come a page at a time (`db/pages.ts`). */
export type StreamedExport = Streamed<AccountExport>;
type Streamed<T> = T extends (infer I)[]
  ? I[] | Pages<I>
  : T extends object
    ? { [K in keyof T]: Streamed<T[K]> }
    : T;

/**
 * Everything that is the account's, once the owner is proven. The small parts are read here; each
 * list is read a page at a time while the answer is written (`platform/json-stream.ts`), so the
 * server holds a page, not the account, however much it holds (ADR 060).
 */
export async function exportAccount(
  deps: AppDeps,
  userId: string,
  body: AccountConfirm,
): Promise<StreamedExport> {
  await deps.limiter.consume([{ rule: rules.accountExport, key: userId }]);
  const user = await auth.confirmOwner(deps, userId, body);
  const db = deps.database.db;
  const vendorId = await catalog.vendorIdOfUser(db, userId);
  const storefront = vendorId ? await catalog.storefrontExport(db, vendorId) : null;
  return {
    exportedAt: new Date().toISOString(),
    profile: users.profileExport(user),
    security: await auth.securityExport(deps, userId),
    orders: orders.orderPages(db, userId),
    ledger: orders.ledgerPages(db, userId, vendorId),
    library: access.libraryPages(db, userId),
    licences: licences.licencePages(db, userId),
    reviews: reviews.reviewPages(db, userId),
    affiliate: affiliates.affiliateExport(db, userId),
    vendor:
      vendorId && storefront
        ? {
            ...storefront,
            sales: await orders.vendorSalesExport(db, vendorId),
            ...(await developers.developerExport(db, vendorId)),
          }
        : null,
  };
}

const blocked = (blockers: string[]) =>
  new AppError('conflict', `Your account cannot be deleted yet. ${blockers.join(' ')}`);

/**
 * Deletes the account. What must settle first is checked before and again inside the transaction
 * (with the account row locked), so a sale landing in between still stops it.
 */
export async function deleteAccount(deps: AppDeps, userId: string, body: AccountConfirm) {
  await deps.limiter.consume([{ rule: rules.accountDelete, key: userId }]);
  await auth.confirmOwner(deps, userId, body);
  const db = deps.database.db;
  const vendorId = await catalog.vendorIdOfUser(db, userId);
  const first = await orders.deletionBlockers(db, userId, vendorId);
  if (first.length) throw blocked(first);

  const outcome = await db.transaction(async (tx) => {
    const user = await users.lockAccount(tx, userId);
    if (!user || user.deletedAt) throw new AppError('invalid_token', 'Your session has expired.');
    const catalogVersion = vendorId ? await catalog.closeStorefront(tx, vendorId) : null;
    const again = await orders.deletionBlockers(tx, userId, vendorId);
    if (again.length) throw blocked(again);
    if (vendorId) await developers.closeDeveloperAccess(tx, vendorId);
    const cancelling = await orders.endBuyerAccess(deps, tx, userId);
    await affiliates.forgetAffiliate(tx, user, users.deletedEmailOf(userId));
    const denied = await auth.endAccountSessions(deps, tx, userId);
    await users.forgetAccount(tx, user);
    return { catalogVersion, cancelling, denied, queued: deps.events.queuedIn(tx) };
  });
  deps.denials.remember(outcome.denied);
  if (outcome.catalogVersion !== null) catalog.storefrontClosed(deps, outcome.catalogVersion);
  await deps.events.notify(outcome.queued);
  await orders.cancelEndedSubscriptions(deps, outcome.cancelling);
  return { message: accountDataMessages.deleted };
}
