import { membershipMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { hmac, safeEqual } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';

const TOKEN = /^([\w-]{1,64})\.([0-9a-f]{32})$/;
const macOf = (deps: AppDeps, id: string) =>
  hmac(deps.config.CODE_SECRET, `saved-search-alerts-off:${id}`).slice(0, 32);

/**
 * The link in an alert e-mail that turns that search's alerts off without signing in: the saved
 * search's id and a 128-bit MAC of it. It does not expire (an old e-mail's link still works) and
 * can do nothing else.
 */
export const unsubscribeToken = (deps: AppDeps, savedSearchId: string) =>
  `${savedSearchId}.${macOf(deps, savedSearchId)}`;

export async function unsubscribe(
  deps: AppDeps,
  token: string,
): Promise<{ message: string; name: string }> {
  const match = TOKEN.exec(token);
  if (!match || !safeEqual(match[2]!, macOf(deps, match[1]!)))
    throw new AppError('not_found', m.badUnsubscribeLink);
  const updated = await deps.database.db.execute(
    sql`update saved_searches set alerts = false, updated_at = now()
        where id = ${match[1]!} returning name`,
  );
  const row = updated.rows[0] as { name: string } | undefined;
  // A deleted search sends nothing any more: the link has done its job.
  return { message: m.unsubscribed, name: row?.name ?? '' };
}
