import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { contentChanged } from '../../platform/content-changes.ts';

/** How often a node asks whether another node changed the catalogue. */
export const CATALOG_SYNC_MS = 500;

const seen = new WeakMap<AppDeps, number>();
/** Whether the replica showed, at the last poll, every catalogue change this node knows of (ADR 061). */
const replicaCaughtUp = new WeakMap<AppDeps, boolean>();

/** Records a change of the public catalogue in the writer's transaction; answers the new version. */
export async function bumpCatalogVersion(tx: Tx): Promise<number> {
  const { rows } = await tx.execute<{ version: string | number }>(
    sql`update content_versions set version = version + 1, changed_at = now()
        where name = 'catalog' returning version`,
  );
  return Number(rows[0]?.version ?? 0);
}

/**
 * After the commit: this node's caches drop their copies now; the others at their next poll, which
 * calls this too when it sees the new version.
 */
export function catalogChanged(deps: AppDeps, version: number): void {
  seen.set(deps, Math.max(seen.get(deps) ?? 0, version));
  // Until a poll sees the change on the replica, public reads go to the primary: a page rendered
  // now is cached, and must not be the old version.
  replicaCaughtUp.set(deps, false);
  contentChanged(deps);
}

/** The poll in progress per node: polls run one after another, so an older one never has the last word. */
const polling = new WeakMap<AppDeps, Promise<void>>();

/**
 * One poll: when the catalogue's version moved since this node last looked (another node edited),
 * its caches drop their copies. The first poll only learns the version. A call while a poll runs
 * waits for it: a poll that read the replica before it replayed a change must not overwrite what a
 * later poll found.
 */
export function checkCatalogChanges(deps: AppDeps): Promise<void> {
  const next = (polling.get(deps) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => pollOnce(deps));
  polling.set(deps, next);
  return next;
}

async function pollOnce(deps: AppDeps): Promise<void> {
  const { rows } = await deps.database.db.execute<{ version: string | number }>(
    sql`select version from content_versions where name = 'catalog'`,
  );
  const version = Number(rows[0]?.version ?? 0);
  const known = seen.get(deps);
  // Another node's change: public reads leave the replica before the caches drop, or a page
  // rendered before the replica is asked could come from a replica that has not replayed it yet
  // and be cached as the new version (seen once in `npm run test:cluster`).
  if (known !== undefined && version > known) catalogChanged(deps, version);
  else seen.set(deps, Math.max(known ?? 0, version));
  const { replica } = deps.database;
  if (replica) {
    // Read after the primary: a replica as new as what this node knows now serves public reads.
    const onReplica = await replica.db
      .execute<{ version: string | number }>(
        sql`select version from content_versions where name = 'catalog'`,
      )
      .then(
        ({ rows }) => Number(rows[0]?.version ?? 0),
        () => null,
      );
    // Compared with what this node knows now, in the same turn as the gate is set: a change this
    // node made while the replica was read keeps the gate shut.
    replicaCaughtUp.set(deps, onReplica !== null && onReplica >= (seen.get(deps) ?? 0));
  }
}

/**
 * A public catalogue read (ADR 061): on the replica when one is configured, the reader is anonymous
 * (cards and pages carry a signed-in user's own ownership and sales) and the replica has caught up
 * with every catalogue change this node knows of; else on the primary.
 */
export function publicRead<T>(
  deps: AppDeps,
  userId: string | null,
  read: () => Promise<T>,
): Promise<T> {
  if (userId !== null || !replicaCaughtUp.get(deps)) return read();
  return deps.database.fromReplica(read);
}

/** Polls until stopped (the app's `onClose`); a failed poll is retried at the next tick. */
export function watchCatalogChanges(deps: AppDeps, everyMs = CATALOG_SYNC_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkCatalogChanges(deps)
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
