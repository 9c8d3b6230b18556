import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** How long an ended row stays: a late refresh or code gets the same refusal either way. */
const KEPT_AFTER_END = sql`interval '1 day'`;
/** Rows per table per run, so one run after a long outage stays a short transaction. */
const BATCH = 5_000;

/**
 * Deletes what ended sign-ins leave behind (daily job): refresh-token families whose every token
 * expired over a day ago (a family goes whole, so reuse of a rotated token is caught while any of
 * it lives), e-mail codes and session denials past their expiry by a day (by then no access token
 * of the family is valid anywhere).
 */
export async function sweepEndedSessions(
  db: Tx,
): Promise<{ refreshTokens: number; codes: number; denials: number }> {
  const tokens = await db.execute(sql`delete from refresh_tokens where id in (
      select r.id from refresh_tokens r
      where r.expires_at < now() - ${KEPT_AFTER_END}
        and not exists (select 1 from refresh_tokens n
          where n.family_id = r.family_id and n.expires_at >= now() - ${KEPT_AFTER_END})
      limit ${BATCH})`);
  const codes = await db.execute(sql`delete from email_codes where id in (
      select id from email_codes where expires_at < now() - ${KEPT_AFTER_END} limit ${BATCH})`);
  const denials = await db.execute(sql`delete from denied_sessions where family_id in (
      select family_id from denied_sessions where expires_at < now() - ${KEPT_AFTER_END}
      limit ${BATCH})`);
  return {
    refreshTokens: tokens.rowCount ?? 0,
    codes: codes.rowCount ?? 0,
    denials: denials.rowCount ?? 0,
  };
}
