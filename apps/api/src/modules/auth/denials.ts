import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { deniedSessions } from './tables.ts';

export type DenialReason = 'reuse' | 'logout' | 'password' | 'revoked';

/** How far the copy may lag what other nodes denied, by default. */
export const DENIAL_SYNC_MS = 5_000;
/** Rows are re-read this far behind the last sync, for transactions that committed late. */
const OVERLAP_SECONDS = 60;
/** Beyond the token lifetime, for clocks that disagree a little between nodes. */
const MARGIN_SECONDS = 60;

/**
 * Which sign-in families' access tokens are refused (ADR 021). PostgreSQL holds the denials; each
 * node keeps them in a map and re-reads new rows when its copy is older than `syncMs`, so a bearer
 * check is a map lookup and at most one indexed query per interval, whatever the traffic. A denial
 * made on this node applies here at once; other nodes see it within `syncMs`.
 */
export class SessionDenials {
  private readonly denied = new Map<string, number>();
  private syncedAt = Number.NEGATIVE_INFINITY;
  /** Database time of the last read, minus the overlap; null until the first (full) read. */
  private cursor: Date | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly accessTtlSeconds: number,
    private readonly options: {
      syncMs?: number;
      onError?: (err: unknown) => void;
      now?: () => number;
    } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async isDenied(familyId: string): Promise<boolean> {
    if (this.now() - this.syncedAt >= (this.options.syncMs ?? DENIAL_SYNC_MS)) await this.sync();
    const until = this.denied.get(familyId);
    return until !== undefined && until > this.now();
  }

  /** Reads denials recorded since the last read (single flight). */
  sync(): Promise<void> {
    this.syncing ??= this.read().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async read(): Promise<void> {
    const startedAt = this.now();
    try {
      const since = this.cursor ? this.cursor.toISOString() : null;
      const res = await this.db.execute<{ at: Date; family_id: string | null; until: Date | null }>(
        sql`with clock as (select now() as at)
            select clock.at, d.family_id, d.expires_at as until
            from clock left join ${deniedSessions} d
              on d.expires_at > clock.at
             and (${since}::timestamptz is null or d.created_at > ${since}::timestamptz)`,
      );
      for (const row of res.rows) {
        if (row.family_id && row.until) this.add(row.family_id, new Date(row.until).getTime());
      }
      const at = res.rows[0]?.at;
      if (at) this.cursor = new Date(new Date(at).getTime() - OVERLAP_SECONDS * 1000);
      this.sweep();
    } catch (err) {
      // Keep verifying with what is known rather than refusing every session; retry next interval.
      this.options.onError?.(err);
    }
    this.syncedAt = startedAt;
  }

  /**
   * Records denials in the caller's transaction; returns what to `remember` once it committed.
   * Each family is refused for as long as any access token it was issued can live.
   */
  async record(
    tx: Tx,
    userId: string,
    familyIds: string[],
    reason: DenialReason,
  ): Promise<Array<{ familyId: string; until: number }>> {
    if (!familyIds.length) return [];
    const seconds = this.accessTtlSeconds + MARGIN_SECONDS;
    const rows = await tx
      .insert(deniedSessions)
      .values(
        familyIds.map((familyId) => ({
          familyId,
          userId,
          reason,
          expiresAt: sql`now() + make_interval(secs => ${seconds})`,
        })),
      )
      .onConflictDoUpdate({
        target: deniedSessions.familyId,
        set: { expiresAt: sql`excluded.expires_at`, createdAt: sql`now()` },
      })
      .returning({ familyId: deniedSessions.familyId, until: deniedSessions.expiresAt });
    // Expired rows only cost reads: clear them out while writing anyway.
    await tx.execute(
      sql`delete from ${deniedSessions} where ${deniedSessions.expiresAt} < now() - interval '1 hour'`,
    );
    return rows.map((r) => ({ familyId: r.familyId, until: r.until.getTime() }));
  }

  /** Applies committed denials on this node without waiting for the next read. */
  remember(denials: Array<{ familyId: string; until: number }>): void {
    for (const d of denials) this.add(d.familyId, d.until);
  }

  private add(familyId: string, until: number): void {
    const known = this.denied.get(familyId) ?? 0;
    if (until > known) this.denied.set(familyId, until);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, until] of this.denied) if (until <= now) this.denied.delete(id);
  }
}
