// Use case: count a visit through a referral link, once per visitor, link and day.
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { hmac } from '../../lib.ts';
import { addressKey, type RateRule } from '../../platform/rate-limit.ts';

/** Visits one address may report a minute; a page load reports one. */
export const clickRule: RateRule = { name: 'affiliate-click:ip', limit: 60, windowSeconds: 60 };

/**
 * Records a click unless the same visitor (a keyed hash of address and browser, so no address is
 * stored) already clicked that link today, or the affiliate clicked their own link. Answers how
 * long to remember the referral: the link's cookie window (null for an unknown id).
 */
export async function recordClick(
  deps: AppDeps,
  visit: { refId: string; ip: string; userAgent: string; userId: string | null },
): Promise<{ counted: boolean; cookieDays: number | null }> {
  await deps.limiter.consume([{ rule: clickRule, key: addressKey(visit.ip) }]);
  const db = deps.database.db;
  const found = await db.execute<{ user_id: string; cookie_days: number }>(
    sql`select user_id, cookie_days from referral_links where ref_id = ${visit.refId}`,
  );
  const link = found.rows[0];
  if (!link) return { counted: false, cookieDays: null };
  if (visit.userId === link.user_id) return { counted: false, cookieDays: link.cookie_days };
  const visitor = hmac(
    deps.config.CODE_SECRET,
    `click:${addressKey(visit.ip)}|${visit.userAgent}`,
  ).slice(0, 32);
  const inserted = await db.execute(
    sql`insert into affiliate_clicks (ref_id, visitor, day)
        values (${visit.refId}, ${visitor}, (now() at time zone 'UTC')::date)
        on conflict do nothing returning ref_id`,
  );
  return { counted: inserted.rows.length > 0, cookieDays: link.cookie_days };
}
