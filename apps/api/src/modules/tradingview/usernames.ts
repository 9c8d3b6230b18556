// Use case: the buyer gives or changes their TradingView username; the grants move with it.
import { normaliseTradingViewUsername, type TradingViewAccessResponse } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { accessStatus } from './status.ts';
import { lockBuyer, syncBuyer } from './sync.ts';

export async function setUsername(
  deps: AppDeps,
  userId: string,
  input: string,
): Promise<TradingViewAccessResponse> {
  const username = normaliseTradingViewUsername(input);
  const mails = await deps.database.db.transaction(async (tx) => {
    await lockBuyer(tx, userId);
    const current = (
      await tx.execute<{ username: string }>(
        sql`select username from tradingview_usernames where user_id = ${userId}`,
      )
    ).rows[0]?.username;
    if (current === username) return [];
    await tx.execute(sql`insert into tradingview_usernames (user_id, username) values (${userId}, ${username})
      on conflict (user_id) do update set username = excluded.username, changed_at = now()`);
    await tx.execute(sql`insert into tradingview_username_changes (user_id, old_username, new_username)
      values (${userId}, ${current ?? null}, ${username})`);
    // A new name moves every grant; the same name in other letter case changes none (TradingView
    // matches names without regard to case).
    return syncBuyer(deps, tx, userId);
  });
  await deps.mailer.dispatch(mails);
  return accessStatus(deps, userId);
}
