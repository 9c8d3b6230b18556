import {
  categoryLabels,
  categoryOfKind,
  membershipMessages as m,
  platformLabels,
  SAVED_SEARCH_NAME_MAX,
  type createSavedSearchRequest,
  type SavedSearch,
  type updateSavedSearchRequest,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { cursorField, cursorKind, pageOf } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { presentSavedSearch, rows, type SavedSearchRow } from './repository.ts';
import { currentPlan } from './status.ts';

type CreateInput = z.output<typeof createSavedSearchRequest>;
type UpdateInput = z.output<typeof updateSavedSearchRequest>;

const notFound = () => new AppError('not_found', m.notFound);
const columns = sql`id, user_id, name, q, category, kind, platform, min_price, max_price, alerts,
  checked_until, created_at`;

/** A saved search's place in the newest-first list. */
const SAVED_SEARCH_CURSOR = cursorKind('saved-search', [cursorField.time, cursorField.id]);

/** The member's saved searches, newest first, and how many their plan allows (0 without one). */
export async function listSavedSearches(
  deps: AppDeps,
  userId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{
  savedSearches: SavedSearch[];
  nextCursor: string | null;
  count: number;
  limit: number;
}> {
  const after = cursor
    ? (([at, id]) => sql`and (created_at, id) < (${at}::timestamptz, ${id})`)(
        deps.cursors.decode(SAVED_SEARCH_CURSOR, cursor),
      )
    : sql``;
  const [found, counted, plan] = await Promise.all([
    rows<SavedSearchRow>(
      deps.database.db,
      sql`select ${columns} from saved_searches where user_id = ${userId} ${after}
          order by created_at desc, id desc limit ${limit + 1}`,
    ),
    rows<{ n: number }>(
      deps.database.db,
      sql`select count(*)::int as n from saved_searches where user_id = ${userId}`,
    ),
    currentPlan(deps, userId),
  ]);
  const { page, nextCursor } = pageOf(found, limit, (last) =>
    deps.cursors.encode(SAVED_SEARCH_CURSOR, [new Date(last.created_at).toISOString(), last.id]),
  );
  return {
    savedSearches: page.map(presentSavedSearch),
    nextCursor,
    count: counted[0]!.n,
    limit: plan?.plan.savedSearches ?? 0,
  };
}

/** A name from the query and filters when the member gave none ("rsi · Indicators · TradingView"). */
function defaultName(input: CreateInput): string {
  const parts = [
    input.q,
    input.category ? categoryLabels[input.category] : '',
    input.kind && !input.category ? categoryLabels[categoryOfKind[input.kind]] : '',
    input.platform ? platformLabels[input.platform] : '',
  ].filter(Boolean);
  return parts.join(' · ').slice(0, SAVED_SEARCH_NAME_MAX);
}

/**
 * Saves a search for a member, within their plan's limit. The count and the insert run under a lock
 * on the member, so two saves at once cannot pass the limit together. Alerts cover products
 * published from now on.
 */
export async function createSavedSearch(
  deps: AppDeps,
  userId: string,
  input: CreateInput,
): Promise<SavedSearch> {
  const current = await currentPlan(deps, userId);
  if (!current) throw new AppError('forbidden', m.membersOnly);
  const { plan } = current;
  return deps.database.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`saved-searches:${userId}`}, 0))`,
    );
    const [counted] = await rows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from saved_searches where user_id = ${userId}`,
    );
    if (counted!.n >= plan.savedSearches)
      throw new AppError('business_rule', m.limitReached(plan.savedSearches, plan.name));
    const [row] = await rows<SavedSearchRow>(
      tx,
      sql`insert into saved_searches (id, user_id, name, q, category, kind, platform, min_price, max_price)
          values (${newId('srch')}, ${userId}, ${input.name ?? defaultName(input)}, ${input.q},
            ${input.category ?? null}, ${input.kind ?? null}, ${input.platform ?? null},
            ${input.minPrice ?? null}, ${input.maxPrice ?? null})
          returning ${columns}`,
    );
    return presentSavedSearch(row!);
  });
}

/**
 * Renames a saved search or turns its alerts on or off; someone else's is not found. Turning alerts
 * back on starts from now, so nothing published while they were off is mailed.
 */
export async function updateSavedSearch(
  deps: AppDeps,
  userId: string,
  id: string,
  input: UpdateInput,
): Promise<SavedSearch> {
  const [row] = await rows<SavedSearchRow>(
    deps.database.db,
    sql`update saved_searches set
          name = coalesce(${input.name ?? null}, name),
          alerts = coalesce(${input.alerts ?? null}::boolean, alerts),
          checked_until = case when ${input.alerts === true} and not alerts
            then greatest(checked_until, now()) else checked_until end,
          updated_at = now()
        where id = ${id} and user_id = ${userId}
        returning ${columns}`,
  );
  if (!row) throw notFound();
  return presentSavedSearch(row);
}

/** Deletes a saved search (and its unsent alerts); someone else's is not found. */
export async function deleteSavedSearch(deps: AppDeps, userId: string, id: string): Promise<void> {
  const deleted = await deps.database.db.execute(
    sql`delete from saved_searches where id = ${id} and user_id = ${userId} returning id`,
  );
  if (!deleted.rows.length) throw notFound();
}
